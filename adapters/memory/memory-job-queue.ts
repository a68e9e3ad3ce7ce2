// JobQueue over the in-memory database; time comes from Clock, so TestClock drives due times and leases.
import { randomUUID } from "node:crypto"
import { Clock, Deferred, Effect, Layer, Option, Ref } from "effect"
import { PLAN_RULES } from "../../domain/plans.ts"
import { holdsLease, type ClaimedJob, type Job, JobQueue, type Lane, LANES, type LaneStats, type RunEnd } from "../../domain/ports/job-queue.ts"
import { MemoryDatabase, type Tables, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** The first instant `claim` may take the job, or undefined when it never will as things stand. */
const claimableFrom = (job: Job): number | undefined => {
  if (job.status === "queued") return job.runAt
  // A lease is expired once `lockedUntil < now`.
  if (job.status === "running" && job.lockedUntil !== null) return job.lockedUntil + 1
  return undefined
}

/** How many jobs of each workspace hold a live lease (`lockedUntil >= now`), in any lane. */
const runningByWorkspace = (t: Tables, now: number): ReadonlyMap<string, number> => {
  const running = new Map<string, number>()
  for (const job of t.jobs.values()) {
    if (job.status === "running" && job.workspaceId !== null && job.lockedUntil !== null && job.lockedUntil >= now) {
      running.set(job.workspaceId, (running.get(job.workspaceId) ?? 0) + 1)
    }
  }
  return running
}

/** Whether the job's workspace already runs as many jobs as its plan allows. */
const atCap = (t: Tables, job: Job, running: ReadonlyMap<string, number>): boolean => {
  if (job.workspaceId === null) return false
  const workspace = t.workspaces.get(job.workspaceId)
  return workspace !== undefined && (running.get(job.workspaceId) ?? 0) >= PLAN_RULES[workspace.plan].maxConcurrentJobs
}

/** The due job of the lane with the smallest runAt, its workspace under its cap; ties go to the one enqueued first. */
const dueJob = (t: Tables, lane: Lane, now: number): Job | undefined => {
  const running = runningByWorkspace(t, now)
  let best: Job | undefined
  for (const job of t.jobs.values()) {
    const from = claimableFrom(job)
    if (
      job.lane === lane && from !== undefined && from <= now && (best === undefined || job.runAt < best.runAt) &&
      !atCap(t, job, running)
    ) {
      best = job
    }
  }
  return best
}

/** The job as the end of its run leaves it. */
const endedAs = (job: Job, end: RunEnd): Job => {
  switch (end._tag) {
    case "Complete":
      return { ...job, status: "done", lockedUntil: null }
    case "Retry":
      return { ...job, status: "queued", runAt: end.runAt, lockedUntil: null, lastError: end.error }
    case "Reschedule":
      return { ...job, status: "queued", runAt: end.runAt, attempts: 0, lockedUntil: null, lastError: end.note }
    case "Kill":
      return { ...job, status: "dead", lockedUntil: null, lastError: end.error }
  }
}

/** The lane's counts at `now`, each job as a claim at that instant would see it. */
const statsOf = (jobs: ReadonlyArray<Job>, lane: Lane, now: number): LaneStats => {
  let ready = 0
  let running = 0
  let scheduled = 0
  let dead = 0
  let oldestReadyRunAt: number | undefined
  for (const job of jobs) {
    if (job.lane !== lane) continue
    const from = claimableFrom(job)
    if (job.status === "dead") dead++
    else if (holdsLease(job, now)) running++
    else if (job.status === "queued" && job.runAt > now) scheduled++
    else if (from !== undefined && from <= now) {
      ready++
      if (oldestReadyRunAt === undefined || job.runAt < oldestReadyRunAt) oldestReadyRunAt = job.runAt
    }
  }
  return { lane, ready, running, scheduled, dead, oldestReadyAgeMs: oldestReadyRunAt === undefined ? null : now - oldestReadyRunAt }
}

export const MemoryJobQueueLive = Layer.effect(
  JobQueue,
  Effect.gen(function*() {
    const db = yield* MemoryDatabase
    const change = (id: string, f: (job: Job) => Job) => db.write((t) => ({ ...t, jobs: updateRow(t.jobs, id, f) }))
    /** Ends runs as the port's RunEnd says, in one write; a job cancelled meanwhile stays cancelled (false). */
    const endRuns = (ends: ReadonlyArray<{ readonly id: string; readonly end: RunEnd }>) =>
      db.modify((t): readonly [ReadonlyArray<Job | undefined>, Tables] => {
        const jobs = new Map(t.jobs)
        const changed = ends.map(({ end, id }) => {
          const job = jobs.get(id)
          if (job === undefined || job.status === "cancelled") return undefined
          const ended = endedAs(job, end)
          jobs.set(id, ended)
          return ended
        })
        return [changed, { ...t, jobs }]
      }).pipe(
        // A job queued again may be due now; a workspace's job that stops frees a place under its cap.
        Effect.tap((changed) =>
          Effect.forEach(
            new Set(changed.flatMap((job) => job !== undefined && (job.status === "queued" || job.workspaceId !== null) ? [job.lane] : [])),
            wake
          )
        ),
        Effect.map((changed) => changed.map((job) => job !== undefined))
      )
    const endRun = (id: string, end: RunEnd) => Effect.map(endRuns([{ id, end }]), (changed) => changed[0] === true)
    // One wake-up signal per lane, completed (and replaced) when work arrives.
    const signals = {
      media: yield* Ref.make(yield* Deferred.make<void>()),
      webhooks: yield* Ref.make(yield* Deferred.make<void>())
    }
    const wake = (lane: Lane) =>
      Deferred.make<void>().pipe(
        Effect.flatMap((next) => Ref.getAndSet(signals[lane], next)),
        Effect.flatMap((current) => Deferred.succeed(current, undefined))
      )
    const laneOf = (id: string) => db.read((t) => Option.fromNullable(t.jobs.get(id)).pipe(Option.map((j) => j.lane)))
    const wakeLaneOf = (id: string) => laneOf(id).pipe(Effect.flatMap(Option.match({ onNone: () => Effect.void, onSome: wake })))
    /** A workspace's job that stops running frees a place under its cap: a job passed over may be claimable now. */
    const wakeForFreedPlace = (id: string) =>
      db.read((t) => Option.fromNullable(t.jobs.get(id))).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.void,
          onSome: (job) => (job.workspaceId === null ? Effect.void : wake(job.lane))
        }))
      )

    return JobQueue.of({
      enqueue: (input) =>
        db.modify((t): readonly [Option.Option<Job>, Tables] => {
          if (input.dedupeKey !== null && [...t.jobs.values()].some((job) => job.dedupeKey === input.dedupeKey)) {
            return [Option.none(), t]
          }
          const job: Job = {
            id: randomUUID(),
            lane: input.lane,
            kind: input.kind,
            payload: input.payload,
            runAt: input.runAt,
            attempts: 0,
            status: "queued",
            lockedUntil: null,
            dedupeKey: input.dedupeKey,
            lastError: null,
            workspaceId: input.workspaceId ?? null,
            claimedBy: null,
            traceParent: input.traceParent ?? null
          }
          return [Option.some(job), { ...t, jobs: withRow(t.jobs, job.id, job) }]
        }).pipe(Effect.tap(() => wake(input.lane)), withSpan("MemoryJobQueue.enqueue")),
      claim: (lane, leaseMs, claimedBy) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) =>
            db.modify((t): readonly [Option.Option<ClaimedJob>, Tables] => {
              const due = dueJob(t, lane, now)
              if (due === undefined) return [Option.none(), t]
              const claimed: Job = {
                ...due,
                status: "running",
                attempts: due.attempts + 1,
                lockedUntil: now + leaseMs,
                claimedBy
              }
              return [Option.some({ ...claimed, reclaimed: due.status === "running" }), { ...t, jobs: withRow(t.jobs, claimed.id, claimed) }]
            })
          ),
          withSpan("MemoryJobQueue.claim")
        ),
      claimBatch: (lane, max, leaseMs, claimedBy) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) =>
            db.modify((t): readonly [ReadonlyArray<ClaimedJob>, Tables] => {
              const due = [...t.jobs.values()]
                .filter((job) => job.lane === lane && job.workspaceId === null && (claimableFrom(job) ?? Infinity) <= now)
                .sort((a, b) => a.runAt - b.runAt)
                .slice(0, max)
              const jobs = new Map(t.jobs)
              const claimed = due.map((job): ClaimedJob => {
                const leased: Job = { ...job, status: "running", attempts: job.attempts + 1, lockedUntil: now + leaseMs, claimedBy }
                jobs.set(job.id, leased)
                return { ...leased, reclaimed: job.status === "running" }
              })
              return [claimed, claimed.length === 0 ? t : { ...t, jobs }]
            })
          ),
          withSpan("MemoryJobQueue.claimBatch")
        ),
      extendLeases: (ids, leaseMs) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) =>
            db.write((t) => {
              const jobs = new Map(t.jobs)
              for (const id of ids) {
                const job = jobs.get(id)
                if (job?.status === "running") jobs.set(id, { ...job, lockedUntil: now + leaseMs })
              }
              return { ...t, jobs }
            })
          ),
          withSpan("MemoryJobQueue.extendLeases")
        ),
      complete: (id) => endRun(id, { _tag: "Complete" }).pipe(withSpan("MemoryJobQueue.complete")),
      retry: (id, runAt, error) => endRun(id, { _tag: "Retry", runAt, error }).pipe(withSpan("MemoryJobQueue.retry")),
      reschedule: (id, runAt, note) =>
        endRun(id, { _tag: "Reschedule", runAt, note }).pipe(withSpan("MemoryJobQueue.reschedule")),
      kill: (id, error) => endRun(id, { _tag: "Kill", error }).pipe(withSpan("MemoryJobQueue.kill")),
      endRuns: (ends) => endRuns(ends).pipe(withSpan("MemoryJobQueue.endRuns")),
      release: (id) =>
        Clock.currentTimeMillis.pipe(
          Effect.flatMap((now) =>
            change(id, (job) =>
              job.status === "running"
                ? { ...job, status: "queued", runAt: now, lockedUntil: null, attempts: Math.max(0, job.attempts - 1) }
                : job)
          ),
          Effect.zipRight(wakeLaneOf(id)),
          withSpan("MemoryJobQueue.release")
        ),
      waitForWork: (lane, maxWait) =>
        Ref.get(signals[lane]).pipe(
          Effect.flatMap((signal) => Deferred.await(signal).pipe(Effect.timeoutOption(maxWait))),
          Effect.asVoid,
          withSpan("MemoryJobQueue.waitForWork")
        ),
      cancel: (dedupeKey, reason) =>
        db.modify((t): readonly [Job | undefined, Tables] => {
          const job = [...t.jobs.values()].find((j) => j.dedupeKey === dedupeKey)
          if (job === undefined || (job.status !== "queued" && job.status !== "running")) return [undefined, t]
          return [job, { ...t, jobs: withRow(t.jobs, job.id, { ...job, status: "cancelled", lockedUntil: null, lastError: reason }) }]
        }).pipe(
          Effect.flatMap((job) => (job === undefined ? Effect.void : wakeForFreedPlace(job.id))),
          withSpan("MemoryJobQueue.cancel")
        ),
      get: (id) => db.read((t) => Option.fromNullable(t.jobs.get(id))).pipe(withSpan("MemoryJobQueue.get")),
      nextRunAt: (lane) =>
        db.read((t) => {
          let next: number | undefined
          for (const job of t.jobs.values()) {
            const from = claimableFrom(job)
            if (job.lane === lane && from !== undefined && (next === undefined || from < next)) next = from
          }
          return Option.fromNullable(next)
        }).pipe(withSpan("MemoryJobQueue.nextRunAt")),
      laneStats: (now) =>
        db.read((t) => {
          const jobs = [...t.jobs.values()]
          return LANES.map((lane) => statsOf(jobs, lane, now))
        }).pipe(withSpan("MemoryJobQueue.laneStats")),
      listRunning: (now) =>
        // A stable sort: jobs due at the same time stay in the order they were enqueued.
        db.read((t) => [...t.jobs.values()].filter((job) => holdsLease(job, now)).sort((a, b) => a.runAt - b.runAt)).pipe(
          withSpan("MemoryJobQueue.listRunning")
        ),
      requeueDead: (id, runAt) =>
        db.modify((t): readonly [Job | undefined, Tables] => {
          const job = t.jobs.get(id)
          if (job === undefined || job.status !== "dead") return [undefined, t]
          return [job, { ...t, jobs: withRow(t.jobs, id, { ...job, status: "queued", runAt, attempts: 0, lockedUntil: null }) }]
        }).pipe(
          Effect.flatMap((job) => (job === undefined ? Effect.succeed(false) : Effect.as(wake(job.lane), true))),
          withSpan("MemoryJobQueue.requeueDead")
        )
    })
  })
)
