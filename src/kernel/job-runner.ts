// Claims jobs lane by lane and runs the handler registered for each kind, renewing the lease while
// it runs. A handler decides its own retries (webhooks follow the domain schedule); a crash is
// retried a few times with a short backoff, then the job goes dead and its handler cleans up. A job
// cancelled in the queue (by any process) is interrupted where it stands: its tools are killed.
import { Cause, Clock, Duration, Effect, Exit, Fiber, Metric, Option, Ref, Schedule } from "effect"
import { type ClaimedJob, type Job, JobQueue, type Lane } from "../../domain/ports/job-queue.ts"
import type { JobHandler } from "./job.ts"
import { currentJobKind, jobDuration, jobsRun, leasesReclaimed } from "./metrics.ts"
import { clearJobScratch, clearRunScratch, CurrentJobId } from "./scratch-space.ts"
import { spanOfTraceParent } from "./trace-context.ts"
import { WORKER_ID } from "./worker-id.ts"

/** A claimed job is someone else's to take once its lease lapses: the claimer crashed or stalled. */
export const DEFAULT_LEASE_MS = 60_000
/** Claims that ended in a crash (in the process, or of the process) before a job goes dead. */
export const MAX_CRASHES = 3
const CRASH_BACKOFF_MS = 5_000
/** How often a running job's record is read to see whether it was cancelled. */
export const DEFAULT_CANCEL_CHECK_MS = 1_000

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

/** One ended run in the metrics: its outcome, and how long it ran. */
const recordRun = (job: Job, outcome: RunOutcome, durationMs: number) =>
  Effect.zipRight(
    Metric.increment(Metric.tagged(Metric.tagged(jobsRun, "kind", job.kind), "outcome", outcome)),
    Metric.update(Metric.tagged(jobDuration, "kind", job.kind), durationMs / 1000)
  )

/** The job's spans continue the trace of the span that queued it (the request, or the job before). */
const jobSpan = (job: Job) => {
  const parent = spanOfTraceParent(job.traceParent)
  return Effect.withSpan("JobRunner.execute", {
    kind: "consumer",
    attributes: { "job.kind": job.kind, "job.id": job.id, "job.attempt": job.attempts, "job.lane": job.lane },
    ...(Option.isSome(parent) ? { parent: parent.value } : {})
  })
}

export const makeJobRunner = <R>(
  handlers: ReadonlyArray<JobHandler<R>>,
  { cancelCheckMs = DEFAULT_CANCEL_CHECK_MS, leaseMs = DEFAULT_LEASE_MS }: {
    readonly leaseMs?: number
    readonly cancelCheckMs?: number
  } = {}
) => {
  const byKind = new Map(handlers.map((h) => [h.kind, h]))

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
      const renew = yield* queue.extendLease(job.id, leaseMs).pipe(
        Effect.repeat(Schedule.spaced(Duration.millis(leaseMs / 3))),
        Effect.delay(Duration.millis(leaseMs / 3)),
        Effect.forkScoped
      )
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
      const changed = yield* (result._tag === "Done"
        ? queue.complete(job.id)
        : result._tag === "RetryAt"
        ? queue.reschedule(job.id, result.at, result.error)
        : queue.kill(job.id, result.error))
      if (!changed) return yield* cancelled
      const told = result._tag === "Done" ? annotations : { ...annotations, error: result.error }
      // A failed video or removal was logged by its lifecycle (a warning): its job still ends Done.
      yield* (result._tag === "Dead" ? Effect.logError("job dead") : Effect.logInfo(`job ${result._tag}`)).pipe(Effect.annotateLogs(told))
      yield* recordRun(job, result._tag === "Done" ? "done" : result._tag === "RetryAt" ? "retry" : "dead", annotations.durationMs)
    }).pipe(Effect.scoped, Effect.annotateLogs(jobAnnotations(job)), jobSpan(job))

  /** Claims one due job of the lane and runs it with `run`; false when none was due. */
  const claimNext = <E, R2>(lane: Lane, run: (job: ClaimedJob) => Effect.Effect<void, E, R2>) =>
    Effect.flatMap(JobQueue, (queue) => queue.claim(lane, leaseMs, WORKER_ID)).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.succeed(false),
        onSome: (job) =>
          Effect.as(Effect.zipRight(job.reclaimed ? Metric.increment(Metric.tagged(leasesReclaimed, "lane", lane)) : Effect.void, run(job)), true)
      }))
    )

  /** Claims and runs one due job of the lane; false when none was due. */
  const runOnce = (lane: Lane) => claimNext(lane, execute)

  /** Runs due jobs until none is left (tests step the worker with this). */
  const drain = (lane: Lane) => runOnce(lane).pipe(Effect.repeat({ while: (ran) => ran }), Effect.asVoid)

  /**
   * Runs a job so that interrupting the caller (a shutdown) first lets it finish for up to `grace`;
   * a job still running then is interrupted, which gives its lease back (and counts in `handedBack`).
   */
  const executeGracefully = (grace: Duration.DurationInput, handedBack: Ref.Ref<number>) => (job: Job) =>
    Effect.forkDaemon(execute(job)).pipe(
      Effect.flatMap((fiber) =>
        Fiber.join(fiber).pipe(
          // Finalizers run uninterruptibly: the wait must be made interruptible for the timeout to end it.
          Effect.onInterrupt(() =>
            Effect.interruptible(Fiber.await(fiber)).pipe(
              Effect.timeout(grace),
              Effect.catchAll(() => Effect.zipRight(Ref.update(handedBack, (n) => n + 1), Fiber.interrupt(fiber))),
              Effect.asVoid
            )
          )
        )
      )
    )

  /** The worker: `concurrency` loops per lane, each waiting for work (at most `pollInterval`) when idle. */
  const run = (options: JobRunnerOptions) => Effect.flatMap(Ref.make(0), (handedBack) => {
    const loop = (lane: Lane) =>
      claimNext(lane, executeGracefully(options.grace, handedBack)).pipe(
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
    return Effect.all(
      lanes.flatMap(([lane, n]) => Array.from({ length: n }, () => loop(lane))),
      { concurrency: "unbounded", discard: true }
    ).pipe(
      // Interrupted is how a worker stops (a shutdown): once every running job finished or was handed back.
      Effect.onInterrupt(() =>
        Effect.flatMap(Ref.get(handedBack), (n) => Effect.logInfo("worker stopped").pipe(Effect.annotateLogs({ jobsHandedBack: n })))
      )
    )
  })

  return { runOnce, drain, run }
}
