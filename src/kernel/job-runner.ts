// Claims jobs lane by lane and runs the handler registered for each kind, renewing the lease while
// it runs. A handler decides its own retries (webhooks follow the domain schedule); a crash is
// retried a few times with a short backoff, then the job goes dead and its handler cleans up. A job
// cancelled in the queue (by any process) is interrupted where it stands: its tools are killed.
import { Cause, Clock, Duration, Effect, Exit, Fiber, Metric, Option, Ref, Schedule } from "effect"
import { type ClaimedJob, type Job, JobQueue, type Lane, type RunEnd } from "../../domain/ports/job-queue.ts"
import type { BatchRun, JobHandler, JobOutcome } from "./job.ts"
import { currentJobKind, jobDuration, jobsRun, leasesReclaimed, seriesOf } from "./metrics.ts"
import { clearJobScratch, clearRunScratch, CurrentJobId } from "./scratch-space.ts"
import { spanOfTraceParent } from "./trace-context.ts"
import { WORKER_ID } from "./worker-id.ts"
import { withSpan } from "./spans.ts"

/** A claimed job is someone else's to take once its lease lapses: the claimer crashed or stalled. */
export const DEFAULT_LEASE_MS = 60_000
/** Claims that ended in a crash (in the process, or of the process) before a job goes dead. */
export const MAX_CRASHES = 3
const CRASH_BACKOFF_MS = 5_000
/** How often a running job's record is read to see whether it was cancelled. */
export const DEFAULT_CANCEL_CHECK_MS = 1_000
/** Jobs a lane of batch handlers claims at once; the lane's concurrency still bounds their slow parts. */
export const DEFAULT_BATCH_SIZE = 32
/**
 * Loops claiming batches in a lane of batch handlers, whatever its concurrency: while one batch reads and
 * writes the store, the other's jobs run. Each batch starts as many jobs at once as the lane has places.
 */
const BATCH_LOOPS = 2

export interface JobRunnerOptions {
  /** Longest idle wait between claims; a wake-up hint from the queue ends it sooner. */
  readonly pollInterval: Duration.DurationInput
  readonly concurrency: Readonly<Record<Lane, number>>
  /** When the worker is interrupted (SIGTERM), running jobs get this long to finish before their leases are released. */
  readonly grace: Duration.DurationInput
}

/** A crash in one line for records and users: the error's message, never its stack. */
const describeCrash = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  const text = error instanceof Error && error.message.length > 0
    ? `${error.name}: ${error.message}`
    : typeof error === "object" && error !== null && "_tag" in error
    ? `${String((error as { _tag: unknown })._tag)} ${JSON.stringify(error)}`
    : String(error)
  return text.split("\n")[0]!.slice(0, 500)
}

/** What every line of a job's log carries: the job, and the records its payload names (`videoId`, `removalId`, `eventId`). */
const jobAnnotations = (job: Job): Record<string, unknown> => {
  const named = typeof job.payload === "object" && job.payload !== null
    ? Object.entries(job.payload).filter(([key, value]) => key.endsWith("Id") && typeof value === "string")
    : []
  return {
    ...Object.fromEntries(named),
    jobId: job.id,
    kind: job.kind,
    attempt: job.attempts,
    ...(job.workspaceId === null ? {} : { workspaceId: job.workspaceId })
  }
}

type RunOutcome = "done" | "retry" | "crashed" | "dead" | "cancelled"

const runsOf = seriesOf(jobsRun, "kind", "outcome")
const durationOf = seriesOf(jobDuration, "kind")
const reclaimedOf = seriesOf(leasesReclaimed, "lane")

/** One ended run in the metrics: its outcome, and how long it ran. */
const recordRun = (job: Job, outcome: RunOutcome, durationMs: number) =>
  Effect.zipRight(Metric.increment(runsOf(job.kind, outcome)), Metric.update(durationOf(job.kind), durationMs / 1000))

/** The job's spans continue the trace of the span that queued it (the request, or the job before). */
const jobSpan = (job: Job) => {
  const parent = spanOfTraceParent(job.traceParent)
  return withSpan("JobRunner.execute", {
    captureStackTrace: false,
    kind: "consumer",
    attributes: { "job.kind": job.kind, "job.id": job.id, "job.attempt": job.attempts, "job.lane": job.lane },
    ...(Option.isSome(parent) ? { parent: parent.value } : {})
  })
}

export const makeJobRunner = <R>(
  handlers: ReadonlyArray<JobHandler<R>>,
  { batchSize = DEFAULT_BATCH_SIZE, cancelCheckMs = DEFAULT_CANCEL_CHECK_MS, leaseMs = DEFAULT_LEASE_MS }: {
    readonly leaseMs?: number
    readonly cancelCheckMs?: number
    readonly batchSize?: number
  } = {}
) => {
  const byKind = new Map(handlers.map((h) => [h.kind, h]))
  /** A lane whose every handler runs batches is claimed in batches. */
  const inBatches = (lane: Lane): boolean => {
    const own = handlers.filter((h) => h.lane === lane)
    return own.length > 0 && own.every((h) => h.runBatch !== undefined)
  }

  const isCancelled = (id: string) =>
    Effect.flatMap(JobQueue, (queue) => queue.get(id)).pipe(
      Effect.map(Option.exists((job) => job.status === "cancelled")),
      // A look that fails (the database is away) is no cancellation; the next look may tell.
      Effect.catchAllDefect(() => Effect.succeed(false))
    )

  /** Succeeds once the job is seen cancelled. */
  const whenCancelled = (id: string) =>
    isCancelled(id).pipe(
      Effect.delay(Duration.millis(cancelCheckMs)),
      Effect.repeat({ until: (cancelled) => cancelled }),
      Effect.asVoid
    )

  /** A run's end as the queue takes it. */
  const endOf = (outcome: JobOutcome): RunEnd =>
    outcome._tag === "Done"
      ? { _tag: "Complete" }
      : outcome._tag === "RetryAt"
      ? { _tag: "Reschedule", runAt: outcome.at, note: outcome.error }
      : { _tag: "Kill", error: outcome.error }

  /** Keeps the jobs' leases alive while this scope lasts. */
  const renewLeases = (ids: ReadonlyArray<string>) =>
    Effect.flatMap(JobQueue, (queue) => queue.extendLeases(ids, leaseMs)).pipe(
      Effect.repeat(Schedule.spaced(Duration.millis(leaseMs / 3))),
      Effect.delay(Duration.millis(leaseMs / 3)),
      Effect.forkScoped
    )

  /** Runs `work` as a run of the job: its log annotations, its span, and the fiber refs its tools read. */
  const asJob = (job: Job) => <A, E, R2>(work: Effect.Effect<A, E, R2>) =>
    work.pipe(
      Effect.locally(CurrentJobId, job.id),
      Effect.locally(currentJobKind, job.kind),
      Effect.annotateLogs(jobAnnotations(job)),
      jobSpan(job)
    )

  const execute = (job: Job) =>
    Effect.gen(function*() {
      const queue = yield* JobQueue
      const handler = byKind.get(job.kind)
      if (handler === undefined) {
        yield* queue.kill(job.id, `no handler for job kind ${job.kind}`)
        return
      }
      // Scratch an earlier claim left (its worker was killed) goes now: this claim's lease says no one
      // else runs the job. A first claim has none to find.
      if (job.attempts > 1) yield* clearJobScratch(job.id)
      // Interrupted (a shutdown past its grace period): hand the job back rather than wait for the lease to lapse.
      // A claim beyond the limit means earlier claims never reported back: the worker process died each time.
      if (job.attempts > MAX_CRASHES) {
        const error = `the worker stopped ${job.attempts - 1} times while running this job`
        yield* Effect.logError("job dead").pipe(Effect.annotateLogs({ error }))
        yield* recordRun(job, "dead", 0)
        yield* queue.kill(job.id, error)
        return yield* handler.onDead(job, error)
      }
      yield* Effect.addFinalizer((exit) => (Exit.isInterrupted(exit) ? queue.release(job.id) : Effect.void))
      // The folder goes again when this run ends, however it ends.
      yield* Effect.addFinalizer(() => clearRunScratch(job.id))
      const renew = yield* renewLeases([job.id])
      const started = yield* Clock.currentTimeMillis
      // Losing the race interrupts the handler; its finalizers (scratch folders, child processes) run first.
      const finished = yield* Effect.race(
        handler.run(job).pipe(
          Effect.locally(CurrentJobId, job.id),
          Effect.locally(currentJobKind, job.kind),
          Effect.sandbox,
          Effect.either,
          Effect.map(Option.some)
        ),
        Effect.as(whenCancelled(job.id), Option.none())
      )
      yield* Fiber.interrupt(renew)
      const ended = yield* Clock.currentTimeMillis
      const annotations = { durationMs: ended - started }
      const cancelled = recordRun(job, "cancelled", annotations.durationMs).pipe(
        Effect.zipRight(Effect.logInfo("job cancelled")),
        Effect.annotateLogs(annotations)
      )
      if (Option.isNone(finished)) return yield* cancelled
      // Whatever the handler did after a cancel (a crash on the changed record included) is not to be
      // retried: the queue keeps a cancelled job as it is, and says so.
      const outcome = finished.value
      if (outcome._tag === "Left") {
        const error = describeCrash(outcome.left)
        const dead = job.attempts >= MAX_CRASHES
        const settled = dead ? queue.kill(job.id, error) : queue.retry(job.id, ended + CRASH_BACKOFF_MS * job.attempts, error)
        if (!(yield* settled)) return yield* cancelled
        yield* Effect.logError("job crashed", outcome.left).pipe(Effect.annotateLogs(annotations))
        yield* recordRun(job, dead ? "dead" : "crashed", annotations.durationMs)
        if (dead) {
          yield* Effect.logError("job dead").pipe(Effect.annotateLogs({ error }))
          yield* handler.onDead(job, error)
        }
        return
      }
      const result = outcome.right
      const [changed] = yield* queue.endRuns([{ id: job.id, end: endOf(result) }])
      if (changed !== true) return yield* cancelled
      const told = result._tag === "Done" ? annotations : { ...annotations, error: result.error }
      // A failed video or removal was logged by its lifecycle (a warning): its job still ends Done.
      yield* (result._tag === "Dead" ? Effect.logError("job dead") : Effect.logInfo(`job ${result._tag}`)).pipe(Effect.annotateLogs(told))
      yield* recordRun(job, result._tag === "Done" ? "done" : result._tag === "RetryAt" ? "retry" : "dead", annotations.durationMs)
    }).pipe(Effect.scoped, Effect.annotateLogs(jobAnnotations(job)), jobSpan(job))

  /**
   * Runs claimed jobs of a batch lane together, kind by kind, and ends their runs in one step. A batch has
   * no cancel watch: its jobs are quick, and a cancel seen when the runs end is told as for one job. A
   * crash of a kind's batch is a crash of each of its jobs. Jobs that cannot run (no handler, too many
   * crashes) go through `execute`, alone.
   */
  const executeBatch = (claimed: ReadonlyArray<Job>, places: Effect.Semaphore, concurrency: number) =>
    Effect.gen(function*() {
      const queue = yield* JobQueue
      const runnable = claimed.filter((job) => byKind.has(job.kind) && job.attempts <= MAX_CRASHES)
      yield* Effect.forEach(claimed.filter((job) => !runnable.includes(job)), execute, { discard: true })
      if (runnable.length === 0) return
      yield* Effect.forEach(runnable.filter((job) => job.attempts > 1), (job) => clearJobScratch(job.id), { discard: true })
      const ids = runnable.map((job) => job.id)
      yield* Effect.addFinalizer((exit) => (Exit.isInterrupted(exit) ? Effect.forEach(ids, queue.release, { discard: true }) : Effect.void))
      yield* renewLeases(ids)
      const started = yield* Clock.currentTimeMillis
      const kinds = [...new Set(runnable.map((job) => job.kind))]
      const groups = yield* Effect.forEach(kinds, (kind) => {
        const jobs = runnable.filter((job) => job.kind === kind)
        const handler = byKind.get(kind)!
        const run = handler.runBatch ?? ((each: ReadonlyArray<Job>) => Effect.forEach(each, (job) => asJob(job)(handler.run(job))))
        const batch: BatchRun = { asJob, inPlace: places.withPermits(1), concurrency }
        return Effect.map(Effect.either(Effect.sandbox(run(jobs, batch))), (result) => ({ handler, jobs, result }))
      }, { concurrency: "unbounded" })
      const ended = yield* Clock.currentTimeMillis
      const durationMs = ended - started
      const runs = groups.flatMap(({ handler, jobs, result }) =>
        jobs.map((job, i) => {
          if (result._tag === "Left") {
            const error = describeCrash(result.left)
            const dead = job.attempts >= MAX_CRASHES
            const end: RunEnd = dead ? { _tag: "Kill", error } : { _tag: "Retry", runAt: ended + CRASH_BACKOFF_MS * job.attempts, error }
            return { job, handler, end, crash: Option.some(result.left), outcome: dead ? "dead" : "crashed" } as const
          }
          const outcome = result.right[i]!
          const named = outcome._tag === "Done" ? "done" : outcome._tag === "RetryAt" ? "retry" : "dead"
          return { job, handler, end: endOf(outcome), crash: Option.none(), outcome: named } as const
        })
      )
      const changed = yield* queue.endRuns(runs.map(({ end, job }) => ({ id: job.id, end })))
      yield* Effect.forEach(runs, ({ crash, end, handler, job, outcome }, i) => {
        const told = { durationMs, ...(end._tag === "Complete" ? {} : { error: "error" in end ? end.error : end.note }) }
        const log = !changed[i]
          ? Effect.as(Effect.logInfo("job cancelled"), "cancelled" as const)
          : Option.isSome(crash)
          ? Effect.logError("job crashed", crash.value).pipe(
            Effect.zipRight(end._tag === "Kill" ? Effect.zipRight(Effect.logError("job dead"), handler.onDead(job, end.error)) : Effect.void),
            Effect.as(outcome)
          )
          : outcome === "done"
          ? Effect.succeed(outcome)
          : Effect.as(outcome === "dead" ? Effect.logError("job dead") : Effect.logInfo("job RetryAt"), outcome)
        return log.pipe(
          Effect.annotateLogs({ ...jobAnnotations(job), ...told }),
          Effect.flatMap((recorded) => recordRun(job, recorded, durationMs))
        )
      }, { discard: true })
      // One line for the batch, where a job run alone logs `job Done` for each.
      const done = runs.filter(({ outcome }, i) => changed[i] && outcome === "done").length
      if (done > 0) yield* Effect.logInfo("jobs Done").pipe(Effect.annotateLogs({ kinds, jobs: done, durationMs }))
    }).pipe(
      Effect.scoped,
      withSpan("JobRunner.executeBatch", { attributes: { "job.count": claimed.length } })
    )

  /** Records a reclaimed lease, then runs the claimed job(s). */
  const reclaimedIn = (lane: Lane, jobs: ReadonlyArray<ClaimedJob>) => {
    const reclaimed = jobs.filter((job) => job.reclaimed).length
    return reclaimed === 0 ? Effect.void : Metric.incrementBy(reclaimedOf(lane), reclaimed)
  }

  /** Claims one due job of the lane and runs it with `run`; false when none was due. */
  const claimNext = <E, R2>(lane: Lane, run: (job: ClaimedJob) => Effect.Effect<void, E, R2>) =>
    Effect.flatMap(JobQueue, (queue) => queue.claim(lane, leaseMs, WORKER_ID)).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.succeed(false),
        onSome: (job) => Effect.as(Effect.zipRight(reclaimedIn(lane, [job]), run(job)), true)
      }))
    )

  /**
   * Claims a batch of the lane's due jobs and runs it with `runBatch`; when no batch was due, one job
   * (of a workspace, which a batch never takes) with `run`. False when none was due.
   */
  const claimBatchNext = <E, R2>(
    lane: Lane,
    runBatch: (jobs: ReadonlyArray<ClaimedJob>) => Effect.Effect<void, E, R2>,
    run: (job: ClaimedJob) => Effect.Effect<void, E, R2>
  ) =>
    Effect.flatMap(JobQueue, (queue) => queue.claimBatch(lane, batchSize, leaseMs, WORKER_ID)).pipe(
      Effect.flatMap((jobs) =>
        jobs.length === 0 ? claimNext(lane, run) : Effect.as(Effect.zipRight(reclaimedIn(lane, jobs), runBatch(jobs)), true)
      )
    )

  /** Claims and runs due work of the lane once (a job, or a batch in a lane of batch handlers); false when none was due. */
  const runOnce = (lane: Lane) =>
    inBatches(lane)
      ? Effect.flatMap(Effect.makeSemaphore(1), (places) => claimBatchNext(lane, (jobs) => executeBatch(jobs, places, 1), execute))
      : claimNext(lane, execute)

  /** Loops that claim the lane's work, `concurrency` jobs at once; `claimed` runs what one claim took. */
  const laneLoops = <A, E, R2>(lane: Lane, concurrency: number, claimed: (places: Effect.Semaphore) => Effect.Effect<A, E, R2>) =>
    Effect.map(Effect.makeSemaphore(concurrency), (places) =>
      Array.from({ length: inBatches(lane) ? Math.min(concurrency, BATCH_LOOPS) : concurrency }, () => claimed(places))
    )

  /** Runs due jobs until none is left, `concurrency` at once (tests and benchmarks step the worker with this). */
  const drain = (lane: Lane, concurrency = 1) =>
    laneLoops(lane, concurrency, (places) =>
      inBatches(lane) ? claimBatchNext(lane, (jobs) => executeBatch(jobs, places, concurrency), execute) : runOnce(lane)
    ).pipe(
      Effect.flatMap((loops) =>
        Effect.all(loops.map((once) => once.pipe(Effect.repeat({ while: (ran) => ran }))), { concurrency: "unbounded", discard: true })
      )
    )

  /**
   * Runs work so that interrupting the caller (a shutdown) first lets it finish for up to `grace`; work
   * still running then is interrupted, which gives its leases back (and counts its jobs in `handedBack`).
   */
  const gracefully = (grace: Duration.DurationInput, handedBack: Ref.Ref<number>) => <E, R2>(work: Effect.Effect<void, E, R2>, jobs: number) =>
    Effect.forkDaemon(work).pipe(
      Effect.flatMap((fiber) =>
        Fiber.join(fiber).pipe(
          // Finalizers run uninterruptibly: the wait must be made interruptible for the timeout to end it.
          Effect.onInterrupt(() =>
            Effect.interruptible(Fiber.await(fiber)).pipe(
              Effect.timeout(grace),
              Effect.catchAll(() => Effect.zipRight(Ref.update(handedBack, (n) => n + jobs), Fiber.interrupt(fiber))),
              Effect.asVoid
            )
          )
        )
      )
    )

  /**
   * The worker: `concurrency` loops per lane, each waiting for work (at most `pollInterval`) when idle. In a
   * lane of batch handlers each loop claims batches, and the lane's concurrency bounds their jobs' slow parts.
   */
  const run = (options: JobRunnerOptions) => Effect.flatMap(Ref.make(0), (handedBack) => {
    const graceful = gracefully(options.grace, handedBack)
    const loop = (lane: Lane, concurrency: number) => (places: Effect.Semaphore) =>
      (inBatches(lane)
        ? claimBatchNext(
          lane,
          (jobs) => graceful(executeBatch(jobs, places, concurrency), jobs.length),
          (job) => graceful(execute(job), 1)
        )
        : claimNext(lane, (job) => graceful(execute(job), 1))).pipe(
        Effect.flatMap((ran) =>
          ran ? Effect.void : Effect.flatMap(JobQueue, (queue) => queue.waitForWork(lane, options.pollInterval))
        ),
        // The store failing (a database outage) ends this round only: wait, then claim again. Other
        // loops and running jobs carry on; an unfinished job's lease lapses and it is claimed again.
        Effect.catchAllCause((cause) =>
          Cause.isInterruptedOnly(cause)
            ? Effect.failCause(cause)
            : Effect.logError("claiming failed; trying again shortly", cause).pipe(
              Effect.zipRight(Effect.sleep(options.pollInterval))
            )
        ),
        Effect.forever
      )
    const lanes = Object.entries(options.concurrency) as Array<[Lane, number]>
    return Effect.forEach(lanes, ([lane, n]) => laneLoops(lane, n, loop(lane, n))).pipe(
      Effect.flatMap((loops) => Effect.all(loops.flat(), { concurrency: "unbounded", discard: true })),
      // Interrupted is how a worker stops (a shutdown): once every running job finished or was handed back.
      Effect.onInterrupt(() =>
        Effect.flatMap(Ref.get(handedBack), (n) => Effect.logInfo("worker stopped").pipe(Effect.annotateLogs({ jobsHandedBack: n })))
      )
    )
  })

  return { runOnce, drain, run }
}
