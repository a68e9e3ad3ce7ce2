// A job type: its kind, its lane and its payload's Schema, declared once (job-catalogue.ts). Producers
// enqueue through the declaration, so a payload is checked by the compiler where it is made and encoded
// once; the handler is bound to the same declaration and receives the payload decoded. A field renamed
// on one side does not compile.
import { Clock, Effect, Option, Schema } from "effect"
import { type Job, JobQueue, type Lane } from "../../domain/ports/job-queue.ts"
import { currentTraceParent } from "./trace-context.ts"
import { withSpan } from "./spans.ts"

export interface JobType<Kind extends string, P, I> {
  readonly kind: Kind
  readonly lane: Lane
  readonly payload: Schema.Schema<P, I>
}

export const jobType = <const Kind extends string, P, I>(declaration: JobType<Kind, P, I>): JobType<Kind, P, I> => declaration

export type JobOutcome =
  | { readonly _tag: "Done" }
  | { readonly _tag: "RetryAt"; readonly at: number; readonly error: string }
  | { readonly _tag: "Dead"; readonly error: string }

export const Done: JobOutcome = { _tag: "Done" }

/** What a batch handler gets from the runner for the jobs it runs together. */
export interface BatchRun {
  /** Runs one job's own part of the batch (its request out) as a run of that job: its log annotations and its span. */
  readonly asJob: (job: Job) => <A, E, R>(work: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Holds one of the lane's places while `work` runs: the lane's concurrency bounds these across all its batches. */
  readonly inPlace: <A, E, R>(work: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * How many of the batch's jobs to start at once: the lane's places. More would wait for a place, and
   * a fiber waiting on a semaphore costs more CPU than the request it waits to make.
   */
  readonly concurrency: number
}

/** What the job runner calls for a claimed job of one kind. */
export interface JobHandler<R> {
  readonly kind: string
  readonly lane: Lane
  readonly run: (job: Job) => Effect.Effect<JobOutcome, never, R>
  /**
   * Runs claimed jobs of this kind together, sharing their store round trips; each job's outcome, in
   * order. A lane whose every handler has one is claimed in batches.
   */
  readonly runBatch?: (jobs: ReadonlyArray<Job>, batch: BatchRun) => Effect.Effect<ReadonlyArray<JobOutcome>, never, R>
  /** Called once when the job goes dead after crashing too often. */
  readonly onDead: (job: Job, error: string) => Effect.Effect<void, never, R>
}

export interface EnqueueOptions {
  /** The job is queued once per key: a second enqueue with it adds nothing. */
  readonly dedupeKey: string | null
  /** Epoch ms; now when left out. */
  readonly runAt?: number
  /** The workspace whose plan caps its running jobs; left out for work that must never wait behind a cap. */
  readonly workspaceId?: string
}

/** Queues a job of this type; None when its dedupe key was queued already. */
export const enqueue = <Kind extends string, P, I>(type: JobType<Kind, P, I>, payload: P, options: EnqueueOptions) =>
  Effect.gen(function*() {
    const encoded = yield* Schema.encode(type.payload)(payload).pipe(Effect.orDie)
    const runAt = options.runAt ?? (yield* Clock.currentTimeMillis)
    const traceParent = yield* currentTraceParent
    return yield* (yield* JobQueue).enqueue({
      lane: type.lane,
      kind: type.kind,
      payload: encoded,
      runAt,
      dedupeKey: options.dedupeKey,
      ...(options.workspaceId === undefined ? {} : { workspaceId: options.workspaceId }),
      ...Option.match(traceParent, { onNone: () => ({}), onSome: (value) => ({ traceParent: value }) })
    })
  }).pipe(withSpan("enqueue", { attributes: { kind: type.kind } }))

export interface JobBody<P, R> {
  readonly run: (payload: P, job: Job) => Effect.Effect<JobOutcome, never, R>
  readonly onDead: (payload: P, error: string, job: Job) => Effect.Effect<void, never, R>
}

const undecodable = (kind: string): JobOutcome => ({ _tag: "Dead", error: `the payload of this ${kind} job does not decode` })

/** Decodes a job's payload; None when it no longer decodes (queued by an older release). */
const decoder = <P, I>(type: JobType<string, P, I>) => (job: Job) => Effect.option(Schema.decodeUnknown(type.payload)(job.payload))

const deadOf = <P, I, R>(type: JobType<string, P, I>, onDead: JobBody<P, R>["onDead"]) => (job: Job, error: string) =>
  Effect.flatMap(decoder(type)(job), Option.match({
    onNone: () => Effect.logError(`a dead ${type.kind} job's payload does not decode`).pipe(Effect.annotateLogs({ jobId: job.id })),
    onSome: (payload) => onDead(payload, error, job)
  }))

/**
 * The handler of a job type. A payload that no longer decodes (queued by an older release) ends the job
 * dead at once: running it again could not help.
 */
export const handle = <Kind extends string, P, I, R>(type: JobType<Kind, P, I>, body: JobBody<P, R>): JobHandler<R> => ({
  kind: type.kind,
  lane: type.lane,
  run: (job) =>
    Effect.flatMap(decoder(type)(job), Option.match({
      onNone: () => Effect.succeed(undecodable(type.kind)),
      onSome: (payload) => body.run(payload, job)
    })),
  onDead: deadOf(type, body.onDead)
})

/** One job of a batch with its decoded payload. */
export interface BatchItem<P> {
  readonly payload: P
  readonly job: Job
}

export interface BatchJobBody<P, R> {
  /** Each item's outcome, in order. */
  readonly runBatch: (items: ReadonlyArray<BatchItem<P>>, batch: BatchRun) => Effect.Effect<ReadonlyArray<JobOutcome>, never, R>
  readonly onDead: JobBody<P, R>["onDead"]
}

/** As `handle`, for a job type whose jobs run together in batches; a job claimed alone is a batch of one. */
export const handleBatch = <Kind extends string, P, I, R>(
  type: JobType<Kind, P, I>,
  body: BatchJobBody<P, R>
): JobHandler<R> => {
  const decode = decoder(type)
  const runBatch = (jobs: ReadonlyArray<Job>, batch: BatchRun) =>
    Effect.gen(function*() {
      const payloads = yield* Effect.forEach(jobs, decode)
      const items = jobs.flatMap((job, i) => Option.match(payloads[i]!, { onNone: () => [], onSome: (payload) => [{ payload, job }] }))
      const outcomes = items.length === 0 ? [] : yield* body.runBatch(items, batch)
      let next = 0
      return payloads.map((payload) => (Option.isNone(payload) ? undecodable(type.kind) : outcomes[next++]!))
    })
  return {
    kind: type.kind,
    lane: type.lane,
    run: (job) =>
      Effect.map(runBatch([job], { asJob: () => (work) => work, inPlace: (work) => work, concurrency: 1 }), (outcomes) => outcomes[0]!),
    runBatch,
    onDead: deadOf(type, body.onDead)
  }
}
