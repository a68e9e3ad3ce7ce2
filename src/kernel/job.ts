// A job type: its kind, its lane and its payload's Schema, declared once (job-catalogue.ts). Producers
// enqueue through the declaration, so a payload is checked by the compiler where it is made and encoded
// once; the handler is bound to the same declaration and receives the payload decoded. A field renamed
// on one side does not compile.
import { Clock, Effect, Option, Schema } from "effect"
import { type Job, JobQueue, type Lane } from "../../domain/ports/job-queue.ts"
import { currentTraceParent } from "./trace-context.ts"

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

/** What the job runner calls for a claimed job of one kind. */
export interface JobHandler<R> {
  readonly kind: string
  readonly lane: Lane
  readonly run: (job: Job) => Effect.Effect<JobOutcome, never, R>
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
  }).pipe(Effect.withSpan("enqueue", { attributes: { kind: type.kind } }))

export interface JobBody<P, R> {
  readonly run: (payload: P, job: Job) => Effect.Effect<JobOutcome, never, R>
  readonly onDead: (payload: P, error: string, job: Job) => Effect.Effect<void, never, R>
}

/**
 * The handler of a job type. A payload that no longer decodes (queued by an older release) ends the job
 * dead at once: running it again could not help.
 */
export const handle = <Kind extends string, P, I, R>(type: JobType<Kind, P, I>, body: JobBody<P, R>): JobHandler<R> => {
  const decode = (job: Job) => Effect.option(Schema.decodeUnknown(type.payload)(job.payload))
  return {
    kind: type.kind,
    lane: type.lane,
    run: (job) =>
      Effect.flatMap(decode(job), Option.match({
        onNone: () => Effect.succeed<JobOutcome>({ _tag: "Dead", error: `the payload of this ${type.kind} job does not decode` }),
        onSome: (payload) => body.run(payload, job)
      })),
    onDead: (job, error) =>
      Effect.flatMap(decode(job), Option.match({
        onNone: () => Effect.logError(`a dead ${type.kind} job's payload does not decode`).pipe(Effect.annotateLogs({ jobId: job.id })),
        onSome: (payload) => body.onDead(payload, error, job)
      }))
  }
}
