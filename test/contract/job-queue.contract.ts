// What every JobQueue adapter must do. Time comes from the TestClock, which the adapter must read through Clock.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Fiber, type Layer, Option, Ref, TestClock, type TestServices } from "effect"
import type { Plan } from "../../domain/plans.ts"
import { type Job, JobQueue, type JobQueueShape, type Lane } from "../../domain/ports/job-queue.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { aWorkspace } from "./fixtures.ts"

type EnqueueInput = Parameters<JobQueueShape["enqueue"]>[0]

const aJob = (lane: Lane, runAt: number, dedupeKey: string | null = null): EnqueueInput => ({
  lane,
  kind: "caption.generate",
  payload: { videoId: randomUUID(), work: 0, options: { format: "standard", frameRate: 30 } },
  runAt,
  dedupeKey
})

/** A media job of the workspace, due at `runAt`. */
const aWorkspaceJob = (workspaceId: string, runAt: number): EnqueueInput => ({ ...aJob("media", runAt), workspaceId })

/** A stored workspace on `plan`; its id. */
const aStoredWorkspace = (plan: Plan) =>
  Effect.flatMap(WorkspaceStore, (store) => {
    const workspace = aWorkspace({ plan })
    return Effect.as(store.insert(workspace), workspace.id)
  })

const LEASE = 60_000
/** The worker the tests claim as, unless a test tells workers apart. */
const WORKER = "host-a:101"

export const jobQueueContract = (name: string, queue: Layer.Layer<JobQueue | WorkspaceStore, unknown>): void =>
  layer(queue)(`JobQueue (${name})`, (it) => {
    /**
     * Tests share one queue and one TestClock: each works with times relative to `now`, and every job it
     * enqueues (through `enqueue`) is completed at its end, so the next test starts with empty lanes.
     */
    const queueTest = (
      title: string,
      body: (
        enqueue: (input: EnqueueInput) => Effect.Effect<Option.Option<Job>>,
        now: number
      ) => Effect.Effect<void, never, JobQueue | WorkspaceStore | TestServices.TestServices>
    ) =>
      it.effect(title, () =>
        Effect.gen(function*() {
          const jobs = yield* JobQueue
          const created = yield* Ref.make<ReadonlyArray<string>>([])
          const enqueue = (input: EnqueueInput) =>
            jobs.enqueue(input).pipe(
              Effect.tap(Option.match({
                onNone: () => Effect.void,
                onSome: (job) => Ref.update(created, (ids) => [...ids, job.id])
              }))
            )
          const now = yield* Clock.currentTimeMillis
          yield* body(enqueue, now).pipe(
            Effect.ensuring(Effect.flatMap(Ref.get(created), (ids) => Effect.forEach(ids, jobs.complete)))
          )
        }))

    queueTest("enqueues a queued job that get returns", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const input = aJob("media", now + 1_000, `dedupe-${randomUUID()}`)
        const job = Option.getOrThrow(yield* enqueue(input))
        expect(job).toEqual({
          id: job.id,
          lane: "media",
          kind: input.kind,
          payload: input.payload,
          runAt: now + 1_000,
          attempts: 0,
          status: "queued",
          lockedUntil: null,
          dedupeKey: input.dedupeKey,
          lastError: null,
          workspaceId: null,
          claimedBy: null,
          traceParent: null
        })
        expect(Option.getOrThrow(yield* jobs.get(job.id))).toEqual(job)
        expect(Option.isNone(yield* jobs.get(randomUUID()))).toBe(true)
      }))

    queueTest("keeps the trace context a job was queued with", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const traceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        const job = Option.getOrThrow(yield* enqueue({ ...aJob("media", now), traceParent }))
        expect(job.traceParent).toBe(traceParent)
        expect(Option.getOrThrow(yield* jobs.claim("media", LEASE, WORKER))).toMatchObject({ id: job.id, traceParent })
      }))

    queueTest("adds a job with a used dedupe key never again", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const key = `dedupe-${randomUUID()}`
        const first = Option.getOrThrow(yield* enqueue(aJob("webhooks", now, key)))
        expect(Option.isNone(yield* enqueue(aJob("webhooks", now, key)))).toBe(true)
        expect(Option.isNone(yield* enqueue(aJob("media", now + 5, key)))).toBe(true)
        yield* jobs.complete(first.id)
        expect(Option.isNone(yield* enqueue(aJob("webhooks", now, key)))).toBe(true)
        expect(Option.isSome(yield* enqueue(aJob("webhooks", now, null)))).toBe(true)
        expect(Option.isSome(yield* enqueue(aJob("webhooks", now, null)))).toBe(true)
      }))

    queueTest("claims due jobs of the lane only, smallest runAt first", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const late = Option.getOrThrow(yield* enqueue(aJob("media", now + 5_000)))
        const early = Option.getOrThrow(yield* enqueue(aJob("media", now + 2_000)))
        const delivery = Option.getOrThrow(yield* enqueue(aJob("webhooks", now - 1_000)))

        expect(Option.isNone(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
        expect(Option.getOrThrow(yield* jobs.claim("webhooks", LEASE, WORKER)).id).toBe(delivery.id)
        expect(yield* jobs.nextRunAt("media")).toEqual(Option.some(now + 2_000))

        yield* TestClock.adjust(1_999)
        expect(Option.isNone(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
        yield* TestClock.adjust(1)
        const claimed = Option.getOrThrow(yield* jobs.claim("media", LEASE, WORKER))
        expect(claimed).toEqual({ ...early, status: "running", attempts: 1, lockedUntil: now + 2_000 + LEASE, claimedBy: WORKER, reclaimed: false })
        const { reclaimed: _, ...stored } = claimed
        expect(Option.getOrThrow(yield* jobs.get(early.id))).toEqual(stored)
        expect(Option.isNone(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
        expect(yield* jobs.nextRunAt("media")).toEqual(Option.some(now + 5_000))

        yield* TestClock.adjust(3_000)
        expect(Option.getOrThrow(yield* jobs.claim("media", LEASE, WORKER)).id).toBe(late.id)
        expect(Option.isNone(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
      }))

    queueTest("reclaims a job once its lease has expired, and nextRunAt says when", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const job = Option.getOrThrow(yield* enqueue(aJob("media", now)))
        const first = Option.getOrThrow(yield* jobs.claim("media", 1_000, WORKER))
        expect(first).toMatchObject({ id: job.id, attempts: 1, status: "running", lockedUntil: now + 1_000, reclaimed: false })
        expect(Option.isNone(yield* jobs.claim("media", 1_000, WORKER))).toBe(true)

        const reclaimAt = Option.getOrThrow(yield* jobs.nextRunAt("media"))
        yield* TestClock.adjust(1_000)
        expect(Option.isNone(yield* jobs.claim("media", 1_000, WORKER))).toBe(true)
        expect(reclaimAt).toBeGreaterThan(now + 1_000)
        yield* TestClock.setTime(reclaimAt)
        const second = Option.getOrThrow(yield* jobs.claim("media", 1_000, WORKER))
        // Taken from a worker whose lease lapsed: the claim says so (operators count these).
        expect(second).toMatchObject({ id: job.id, attempts: 2, status: "running", lockedUntil: reclaimAt + 1_000, reclaimed: true })
      }))

    queueTest("records the worker that claimed a job last", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const job = Option.getOrThrow(yield* enqueue(aJob("media", now)))
        expect(Option.getOrThrow(yield* jobs.claim("media", 1_000, "host-a:1")).claimedBy).toBe("host-a:1")
        expect(Option.getOrThrow(yield* jobs.get(job.id)).claimedBy).toBe("host-a:1")
        // Its worker stopped: whoever takes the job over is its holder now.
        yield* TestClock.adjust(1_001)
        expect(Option.getOrThrow(yield* jobs.claim("media", 1_000, "host-b:2")).claimedBy).toBe("host-b:2")
        expect(Option.getOrThrow(yield* jobs.get(job.id)).claimedBy).toBe("host-b:2")
      }))

    queueTest("extends a lease", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const job = Option.getOrThrow(yield* enqueue(aJob("media", now)))
        yield* jobs.claim("media", 1_000, WORKER)
        yield* TestClock.adjust(900)
        yield* jobs.extendLeases([job.id], 1_000)
        expect(Option.getOrThrow(yield* jobs.get(job.id)).lockedUntil).toBe(now + 1_900)
        yield* TestClock.adjust(1_000)
        expect(Option.isNone(yield* jobs.claim("media", 1_000, WORKER))).toBe(true)
        yield* TestClock.adjust(1)
        expect(Option.getOrThrow(yield* jobs.claim("media", 1_000, WORKER)).attempts).toBe(2)
      }))

    queueTest("retries a job at a later time with its error", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const job = Option.getOrThrow(yield* enqueue(aJob("webhooks", now)))
        yield* jobs.claim("webhooks", LEASE, WORKER)
        yield* jobs.retry(job.id, now + 30_000, "HTTP 503")
        expect(Option.getOrThrow(yield* jobs.get(job.id))).toEqual({
          ...job,
          status: "queued",
          attempts: 1,
          runAt: now + 30_000,
          lockedUntil: null,
          lastError: "HTTP 503",
          claimedBy: WORKER
        })
        expect(Option.isNone(yield* jobs.claim("webhooks", LEASE, WORKER))).toBe(true)
        expect(yield* jobs.nextRunAt("webhooks")).toEqual(Option.some(now + 30_000))
        yield* TestClock.adjust(30_000)
        expect(Option.getOrThrow(yield* jobs.claim("webhooks", LEASE, WORKER))).toMatchObject({ id: job.id, attempts: 2 })
      }))

    queueTest("reschedules a job at a later time without counting the claim as a crash", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const job = Option.getOrThrow(yield* enqueue(aJob("webhooks", now)))
        yield* jobs.claim("webhooks", LEASE, WORKER)
        yield* jobs.reschedule(job.id, now + 120_000, "answered 500")
        expect(Option.getOrThrow(yield* jobs.get(job.id))).toEqual({
          ...job,
          status: "queued",
          attempts: 0,
          runAt: now + 120_000,
          lockedUntil: null,
          lastError: "answered 500",
          claimedBy: WORKER
        })
        expect(Option.isNone(yield* jobs.claim("webhooks", LEASE, WORKER))).toBe(true)
        yield* TestClock.adjust(120_000)
        expect(Option.getOrThrow(yield* jobs.claim("webhooks", LEASE, WORKER))).toMatchObject({ id: job.id, attempts: 1 })
      }))

    queueTest("never claims completed or killed jobs again", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const done = Option.getOrThrow(yield* enqueue(aJob("media", now)))
        const dead = Option.getOrThrow(yield* enqueue(aJob("media", now + 1)))
        yield* TestClock.adjust(1)
        yield* jobs.claim("media", 1_000, WORKER)
        yield* jobs.claim("media", 1_000, WORKER)
        yield* jobs.complete(done.id)
        yield* jobs.kill(dead.id, "source is not a video")
        expect(Option.getOrThrow(yield* jobs.get(done.id)).status).toBe("done")
        expect(Option.getOrThrow(yield* jobs.get(dead.id))).toMatchObject({
          status: "dead",
          lastError: "source is not a video"
        })
        yield* TestClock.adjust(10_000)
        expect(Option.isNone(yield* jobs.claim("media", 1_000, WORKER))).toBe(true)
        expect(Option.isNone(yield* jobs.nextRunAt("media"))).toBe(true)
      }))

    queueTest("never hands one job to two concurrent claimers", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const ids = yield* Effect.forEach(
          Array.from({ length: 30 }, (_, i) => aJob("media", now - i)),
          (input) => Effect.map(enqueue(input), (job) => Option.getOrThrow(job).id)
        )
        // Bounded, so a queue that hands jobs out twice fails the test instead of looping forever.
        const drain = (taken: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>> =>
          taken.length > ids.length ? Effect.succeed(taken) : Effect.flatMap(jobs.claim("media", LEASE, WORKER), Option.match({
            onNone: () => Effect.succeed(taken),
            onSome: (job) => drain([...taken, job.id])
          }))
        const claimed = (yield* Effect.all(Array.from({ length: 5 }, () => drain([])), { concurrency: "unbounded" }))
          .flat()
        expect(claimed).toHaveLength(ids.length)
        expect(new Set(claimed)).toEqual(new Set(ids))
      }))
  
    queueTest("claims a batch: due jobs of no workspace, earliest first, up to the number asked, reclaiming lapsed leases", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const workspaceId = yield* aStoredWorkspace("pro")
        const ids = yield* Effect.forEach([now - 1, now - 3, now - 2], (runAt) => Effect.map(enqueue(aJob("webhooks", runAt)), (j) => Option.getOrThrow(j).id))
        const capped = Option.getOrThrow(yield* enqueue({ ...aJob("webhooks", now - 10), workspaceId }))
        yield* enqueue(aJob("webhooks", now + 10_000))
        yield* enqueue(aJob("media", now - 5))
        const first = yield* jobs.claimBatch("webhooks", 2, 1_000, WORKER)
        expect(first.map((j) => j.id)).toEqual([ids[1], ids[2]])
        for (const job of first) {
          expect(job).toMatchObject({ status: "running", attempts: 1, lockedUntil: now + 1_000, claimedBy: WORKER, reclaimed: false })
          expect(Option.getOrThrow(yield* jobs.get(job.id))).toMatchObject({ status: "running", attempts: 1, claimedBy: WORKER })
        }
        expect((yield* jobs.claimBatch("webhooks", 10, 1_000, WORKER)).map((j) => j.id)).toEqual([ids[0]])
        // A workspace's job is never in a batch: claim takes it, under its workspace's cap.
        expect(yield* jobs.claimBatch("webhooks", 10, 1_000, WORKER)).toEqual([])
        expect(Option.map(yield* jobs.claim("webhooks", LEASE, WORKER), (j) => j.id)).toEqual(Option.some(capped.id))
        yield* TestClock.adjust(1_001)
        const again = yield* jobs.claimBatch("webhooks", 10, LEASE, "host-b:2")
        expect(new Set(again.map((j) => j.id))).toEqual(new Set(ids))
        expect(again.every((j) => j.reclaimed && j.attempts === 2 && j.claimedBy === "host-b:2")).toBe(true)
      }))

    queueTest("never hands one job to two concurrent batch claimers", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const ids = yield* Effect.forEach(
          Array.from({ length: 30 }, (_, i) => aJob("webhooks", now - i)),
          (input) => Effect.map(enqueue(input), (job) => Option.getOrThrow(job).id)
        )
        const drain = (taken: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>> =>
          taken.length > ids.length ? Effect.succeed(taken) : Effect.flatMap(jobs.claimBatch("webhooks", 4, LEASE, WORKER), (batch) =>
            batch.length === 0 ? Effect.succeed(taken) : drain([...taken, ...batch.map((j) => j.id)]))
        const claimed = (yield* Effect.all(Array.from({ length: 5 }, () => drain([])), { concurrency: "unbounded" })).flat()
        expect(claimed).toHaveLength(ids.length)
        expect(new Set(claimed)).toEqual(new Set(ids))
      }))

    queueTest("ends many runs in one step, each as its own call would, and leaves a cancelled one as it is", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const [done, retried, rescheduled, killed, cancelled] = yield* Effect.forEach(
          [0, 1, 2, 3, 4],
          (i) => Effect.map(enqueue(aJob("webhooks", now - 10 + i, `end-${randomUUID()}`)), Option.getOrThrow)
        )
        expect((yield* jobs.claimBatch("webhooks", 10, LEASE, WORKER)).length).toBe(5)
        yield* jobs.extendLeases([done!.id, retried!.id], LEASE * 2)
        expect(Option.getOrThrow(yield* jobs.get(retried!.id)).lockedUntil).toBe(now + LEASE * 2)
        expect(Option.getOrThrow(yield* jobs.get(killed!.id)).lockedUntil).toBe(now + LEASE)
        yield* jobs.cancel(cancelled!.dedupeKey!, "cancelled on request")
        expect(yield* jobs.endRuns([
          { id: done!.id, end: { _tag: "Complete" } },
          { id: retried!.id, end: { _tag: "Retry", runAt: now + 5_000, error: "crashed" } },
          { id: rescheduled!.id, end: { _tag: "Reschedule", runAt: now + 6_000, note: "answered 500" } },
          { id: killed!.id, end: { _tag: "Kill", error: "dropped" } },
          { id: cancelled!.id, end: { _tag: "Complete" } }
        ])).toEqual([true, true, true, true, false])
        const stateOf = (id: string) =>
          Effect.map(jobs.get(id), (j) => Option.map(j, ({ attempts, lastError, lockedUntil, runAt, status }) => ({ status, runAt, attempts, lockedUntil, lastError })))
        expect(yield* stateOf(done!.id)).toEqual(Option.some({ status: "done", runAt: now - 10, attempts: 1, lockedUntil: null, lastError: null }))
        expect(yield* stateOf(retried!.id)).toEqual(Option.some({ status: "queued", runAt: now + 5_000, attempts: 1, lockedUntil: null, lastError: "crashed" }))
        expect(yield* stateOf(rescheduled!.id)).toEqual(
          Option.some({ status: "queued", runAt: now + 6_000, attempts: 0, lockedUntil: null, lastError: "answered 500" })
        )
        expect(yield* stateOf(killed!.id)).toEqual(Option.some({ status: "dead", runAt: now - 7, attempts: 1, lockedUntil: null, lastError: "dropped" }))
        expect(yield* stateOf(cancelled!.id)).toEqual(
          Option.some({ status: "cancelled", runAt: now - 6, attempts: 1, lockedUntil: null, lastError: "cancelled on request" })
        )
        expect(yield* jobs.endRuns([])).toEqual([])
      }))

    queueTest("release gives a running job back at once, due now, without counting the attempt", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const job = Option.getOrThrow(yield* enqueue(aJob("media", now)))
        const claimed = Option.getOrThrow(yield* jobs.claim("media", LEASE, WORKER))
        expect(claimed.id).toBe(job.id)
        yield* jobs.release(job.id)
        const released = Option.getOrThrow(yield* jobs.get(job.id))
        expect([released.status, released.attempts, released.lockedUntil]).toEqual(["queued", 0, null])
        const again = Option.getOrThrow(yield* jobs.claim("media", LEASE, WORKER))
        expect([again.id, again.attempts]).toEqual([job.id, 1])
        // Releasing a job that is not running changes nothing.
        yield* jobs.complete(job.id)
        yield* jobs.release(job.id)
        expect(Option.map(yield* jobs.get(job.id), (j) => j.status)).toEqual(Option.some("done"))
      }))

    queueTest("cancels a queued or running job by its dedupe key for good, and nothing else", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const statusOf = (id: string) => Effect.map(jobs.get(id), Option.map((j) => [j.status, j.lockedUntil, j.lastError]))
        const queued = Option.getOrThrow(yield* enqueue(aJob("media", now + 1_000, `cancel-${randomUUID()}`)))
        const running = Option.getOrThrow(yield* enqueue(aJob("media", now, `cancel-${randomUUID()}`)))
        const done = Option.getOrThrow(yield* enqueue(aJob("webhooks", now, `cancel-${randomUUID()}`)))
        const untouched = Option.getOrThrow(yield* enqueue(aJob("media", now + 1_000, `cancel-${randomUUID()}`)))
        expect(Option.map(yield* jobs.claim("media", LEASE, WORKER), (j) => j.id)).toEqual(Option.some(running.id))
        yield* jobs.complete(done.id)

        yield* jobs.cancel(queued.dedupeKey!, "cancelled on request")
        yield* jobs.cancel(running.dedupeKey!, "cancelled on request")
        yield* jobs.cancel(done.dedupeKey!, "cancelled on request")
        yield* jobs.cancel(`cancel-${randomUUID()}`, "no such job")
        expect(yield* statusOf(queued.id)).toEqual(Option.some(["cancelled", null, "cancelled on request"]))
        expect(yield* statusOf(running.id)).toEqual(Option.some(["cancelled", null, "cancelled on request"]))
        expect(yield* statusOf(done.id)).toEqual(Option.some(["done", null, null]))
        expect(yield* statusOf(untouched.id)).toEqual(Option.some(["queued", null, null]))

        // Neither the queued one when due, nor the running one when its lease would have lapsed, is claimed again.
        yield* TestClock.adjust(LEASE + 1_000)
        const claimed = yield* jobs.claim("media", LEASE, WORKER)
        expect(Option.map(claimed, (j) => j.id)).toEqual(Option.some(untouched.id))
        expect(Option.isNone(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
        // The worker that ran it hands it back on its way out: it stays cancelled.
        yield* jobs.release(running.id)
        expect(Option.map(yield* jobs.get(running.id), (j) => j.status)).toEqual(Option.some("cancelled"))
        // Nor does the end of its run change it, whatever the run's outcome: each end says it changed nothing.
        expect(yield* jobs.complete(running.id)).toBe(false)
        expect(yield* jobs.retry(running.id, now, "crashed")).toBe(false)
        expect(yield* jobs.reschedule(running.id, now, "answered 500")).toBe(false)
        expect(yield* jobs.kill(running.id, "dead")).toBe(false)
        expect(yield* statusOf(running.id)).toEqual(Option.some(["cancelled", null, "cancelled on request"]))
        expect(yield* jobs.complete(untouched.id)).toBe(true)
        expect(yield* statusOf(untouched.id)).toEqual(Option.some(["done", null, null]))
      }))

    queueTest("laneStats counts each lane's ready, running, scheduled and dead jobs at the instant given", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const empty = { ready: 0, running: 0, scheduled: 0, dead: 0, oldestReadyAgeMs: null }
        expect(yield* jobs.laneStats(now)).toEqual([{ lane: "media", ...empty }, { lane: "webhooks", ...empty }])

        // Two running, the first under a lease lapsing at now + 1_000.
        yield* enqueue(aJob("media", now - 20_000))
        yield* jobs.claim("media", 1_000, WORKER)
        yield* enqueue(aJob("media", now - 9_000))
        yield* jobs.claim("media", LEASE, WORKER)
        yield* enqueue(aJob("media", now - 5_000))
        yield* enqueue(aJob("media", now - 1_000))
        yield* enqueue(aJob("media", now + 10_000))
        yield* jobs.kill(Option.getOrThrow(yield* enqueue(aJob("media", now - 2_000))).id, "source is not a video")
        yield* jobs.complete(Option.getOrThrow(yield* enqueue(aJob("media", now - 30_000))).id)
        yield* enqueue(aJob("webhooks", now + 500))

        expect(yield* jobs.laneStats(now)).toEqual([
          { lane: "media", ready: 2, running: 2, scheduled: 1, dead: 1, oldestReadyAgeMs: 5_000 },
          { lane: "webhooks", ...empty, scheduled: 1 }
        ])
        // A lease is live up to its last millisecond, as a claim sees it.
        expect((yield* jobs.laneStats(now + 1_000))[0]).toMatchObject({ ready: 2, running: 2, oldestReadyAgeMs: 6_000 })
        // Once it lapses its job is ready again, due since its own runAt; the webhook has come due.
        expect(yield* jobs.laneStats(now + 2_000)).toEqual([
          { lane: "media", ready: 3, running: 1, scheduled: 1, dead: 1, oldestReadyAgeMs: 22_000 },
          { lane: "webhooks", ...empty, ready: 1, oldestReadyAgeMs: 1_500 }
        ])
      }))

    queueTest("listRunning lists the jobs held under a live lease, the earliest due first", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const [a, b, c] = yield* Effect.forEach([now - 3_000, now - 2_000, now - 1_000], (at) =>
          Effect.map(enqueue(aJob("media", at)), Option.getOrThrow))
        const w = Option.getOrThrow(yield* enqueue(aJob("webhooks", now - 500)))
        yield* enqueue(aJob("media", now + 1_000))
        yield* jobs.claim("media", LEASE, "host-a:1")
        yield* jobs.claim("media", LEASE, "host-a:1")
        yield* jobs.claim("media", 1_000, "host-b:2")
        yield* jobs.claim("webhooks", LEASE, "host-c:3")
        yield* jobs.complete(b!.id)
        const held = (at: number) =>
          Effect.map(jobs.listRunning(at), (list) => list.map((job) => [job.id, job.status, job.claimedBy, job.lockedUntil]))
        expect(yield* held(now)).toEqual([
          [a!.id, "running", "host-a:1", now + LEASE],
          [c!.id, "running", "host-b:2", now + 1_000],
          [w.id, "running", "host-c:3", now + LEASE]
        ])
        expect(yield* held(now + 1_001)).toEqual([[a!.id, "running", "host-a:1", now + LEASE], [w.id, "running", "host-c:3", now + LEASE]])
      }))

    queueTest("passes over the jobs of a workspace running as many as its plan allows", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const free = yield* aStoredWorkspace("free")
        const creator = yield* aStoredWorkspace("creator")
        const f1 = Option.getOrThrow(yield* enqueue(aWorkspaceJob(free, now - 5)))
        expect(f1.workspaceId).toBe(free)
        const f2 = Option.getOrThrow(yield* enqueue(aWorkspaceJob(free, now - 4)))
        const c1 = Option.getOrThrow(yield* enqueue(aWorkspaceJob(creator, now - 3)))
        const c2 = Option.getOrThrow(yield* enqueue(aWorkspaceJob(creator, now - 2)))
        const c3 = Option.getOrThrow(yield* enqueue(aWorkspaceJob(creator, now - 1)))
        const other = Option.getOrThrow(yield* enqueue(aJob("media", now)))
        const claimId = Effect.map(jobs.claim("media", LEASE, WORKER), Option.map((job) => job.id))

        // free runs 1 at once, creator 2; a job of no workspace is never held back.
        expect(yield* claimId).toEqual(Option.some(f1.id))
        expect(yield* claimId).toEqual(Option.some(c1.id))
        expect(yield* claimId).toEqual(Option.some(c2.id))
        expect(yield* claimId).toEqual(Option.some(other.id))
        expect(yield* claimId).toEqual(Option.none())

        // A finished job frees its place.
        yield* jobs.complete(f1.id)
        expect(yield* claimId).toEqual(Option.some(f2.id))
        yield* jobs.kill(c1.id, "broken source")
        expect(yield* claimId).toEqual(Option.some(c3.id))
        expect(yield* claimId).toEqual(Option.none())
      }))

    queueTest("counts only live leases against the cap, and follows a plan change at once", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const workspaces = yield* WorkspaceStore
        const free = yield* aStoredWorkspace("free")
        const first = Option.getOrThrow(yield* enqueue(aWorkspaceJob(free, now - 2)))
        const second = Option.getOrThrow(yield* enqueue(aWorkspaceJob(free, now - 1)))
        const third = Option.getOrThrow(yield* enqueue(aWorkspaceJob(free, now)))
        expect(Option.map(yield* jobs.claim("media", 1_000, WORKER), (j) => j.id)).toEqual(Option.some(first.id))
        expect(Option.isNone(yield* jobs.claim("media", 1_000, WORKER))).toBe(true)

        // Its worker stopped: the lapsed lease holds no place, and the job itself is claimed again first.
        yield* TestClock.adjust(1_001)
        expect(Option.getOrThrow(yield* jobs.claim("media", 1_000, WORKER))).toMatchObject({ id: first.id, attempts: 2 })
        expect(Option.isNone(yield* jobs.claim("media", 1_000, WORKER))).toBe(true)

        yield* workspaces.update({ ...Option.getOrThrow(yield* workspaces.get(free)), plan: "business" })
        expect(Option.map(yield* jobs.claim("media", 1_000, WORKER), (j) => j.id)).toEqual(Option.some(second.id))
        expect(Option.map(yield* jobs.claim("media", 1_000, WORKER), (j) => j.id)).toEqual(Option.some(third.id))
      }))

    queueTest("caps no job of a workspace it has no record of", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const unknown = randomUUID()
        const ids = yield* Effect.forEach([now - 1, now], (at) =>
          Effect.map(enqueue(aWorkspaceJob(unknown, at)), (job) => Option.getOrThrow(job).id))
        expect(Option.map(yield* jobs.claim("media", LEASE, WORKER), (j) => j.id)).toEqual(Option.some(ids[0]))
        expect(Option.map(yield* jobs.claim("media", LEASE, WORKER), (j) => j.id)).toEqual(Option.some(ids[1]))
      }))

    queueTest("waitForWork returns when work arrives in the lane, or after the longest wait", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const waiting = yield* Effect.fork(jobs.waitForWork("webhooks", "1 hour"))
        yield* Effect.yieldNow().pipe(Effect.repeatN(5))
        yield* enqueue(aJob("webhooks", now))
        // Without the wake-up this join would wait for the hour, and the test would time out.
        yield* Fiber.join(waiting)
        const idle = yield* Effect.fork(jobs.waitForWork("media", "2 seconds"))
        yield* TestClock.adjust("2 seconds")
        yield* Fiber.join(idle)
      }))

    queueTest("waitForWork returns when a workspace's job stops running, freeing a place under its cap", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const free = yield* aStoredWorkspace("free")
        const running = Option.getOrThrow(yield* enqueue(aWorkspaceJob(free, now - 1)))
        yield* enqueue(aWorkspaceJob(free, now))
        yield* jobs.claim("media", LEASE, WORKER)
        expect(Option.isNone(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
        const waiting = yield* Effect.fork(jobs.waitForWork("media", "1 hour"))
        yield* Effect.yieldNow().pipe(Effect.repeatN(5))
        yield* jobs.complete(running.id)
        // Without the wake-up this join would wait for the hour, and the test would time out.
        yield* Fiber.join(waiting)
        expect(Option.isSome(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
      }))

    queueTest("requeueDead puts a dead job back, due when asked, its attempts from zero; any other job stays as it is", (enqueue, now) =>
      Effect.gen(function*() {
        const jobs = yield* JobQueue
        const job = Option.getOrThrow(yield* enqueue(aJob("media", now)))
        yield* jobs.claim("media", LEASE, WORKER)
        yield* jobs.kill(job.id, "source is not a video")
        const waiting = yield* Effect.fork(jobs.waitForWork("media", "1 hour"))
        yield* Effect.yieldNow().pipe(Effect.repeatN(5))
        expect(yield* jobs.requeueDead(job.id, now + 5_000)).toBe(true)
        // Without the wake-up this join would wait for the hour, and the test would time out.
        yield* Fiber.join(waiting)
        expect(Option.getOrThrow(yield* jobs.get(job.id))).toEqual({
          ...job,
          status: "queued",
          runAt: now + 5_000,
          attempts: 0,
          lockedUntil: null,
          lastError: "source is not a video",
          claimedBy: WORKER
        })
        expect(Option.isNone(yield* jobs.claim("media", LEASE, WORKER))).toBe(true)
        yield* TestClock.adjust(5_000)
        expect(Option.getOrThrow(yield* jobs.claim("media", LEASE, WORKER))).toMatchObject({ id: job.id, attempts: 1 })

        const unchanged = (id: string) =>
          Effect.gen(function*() {
            const before = yield* jobs.get(id)
            expect(yield* jobs.requeueDead(id, now)).toBe(false)
            expect(yield* jobs.get(id)).toEqual(before)
          })
        yield* unchanged(job.id)
        yield* unchanged(Option.getOrThrow(yield* enqueue(aJob("media", now + 60_000))).id)
        yield* jobs.complete(job.id)
        yield* unchanged(job.id)
        expect(yield* jobs.requeueDead(randomUUID(), now)).toBe(false)
      }))
})
