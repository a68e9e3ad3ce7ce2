// One lifecycle for every kind of background work (a video, a caption removal, and what comes next). A
// kind declares its store, its state machine and what its effects do; the lifecycle applies an event to
// the held record with all it causes (the record, its webhook event, its refund, its next job) in one
// transaction, ends running work as failed once, and records the steps of the kind's job.
import { Duration, Effect, Either, FiberRef, Metric, Option } from "effect"
import type { WorkFailed } from "../../domain/errors.ts"
import type { JobQueue } from "../../domain/ports/job-queue.ts"
import type { Outbox } from "../../domain/ports/outbox.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import type { Emit, IllegalTransition } from "../../domain/video.ts"
import { redactUrl } from "../../domain/webhooks.ts"
import { currentJobKind, seriesOf, stepDuration } from "./metrics.ts"
import { nowIso } from "./now.ts"
import { queueWebhookEvent } from "./queue-webhook-event.ts"
import { withSpan } from "./spans.ts"

/** What the lifecycle reads on every record of work. */
export interface WorkRecord {
  readonly id: string
  readonly workspaceId: string
  readonly createdAt: string
  /** Where its end event goes; null sends none. */
  readonly webhookUrl: string | null
  readonly step: string
}

/** The part of a kind's store the lifecycle uses; VideoStore and CaptionRemovalStore have it as they are. */
export interface WorkStore<Rec> {
  readonly insert: (record: Rec) => Effect.Effect<void>
  /** Inside a transaction the record is held against other writers until it ends. */
  readonly getForUpdate: (id: string) => Effect.Effect<Option.Option<Rec>>
  readonly update: (record: Rec) => Effect.Effect<void>
}

/** Effects are told apart by their tag. */
export type Tagged = { readonly _tag: string }

/** A legal transition: the new record and what must follow it in the same transaction. */
export interface Changed<Rec, Eff extends Tagged> {
  readonly record: Rec
  readonly effects: ReadonlyArray<Emit | Eff>
}

/**
 * A kind of work, declared once. `Eff` are its effects besides the end event, which the lifecycle sends
 * itself; each function names the services it needs on its own, so that a declaration infers them all.
 */
export interface WorkKind<Rec extends WorkRecord, Ev extends { readonly at: string }, Eff extends Tagged, RS, RC, RF, RP> {
  /** Names the kind in defects and spans; its id is logged as `${name}Id`. */
  readonly name: string
  /** What a step's log line says before the step's name; `${name} step` when left out. */
  readonly stepLog?: string
  readonly store: Effect.Effect<WorkStore<Rec>, never, RS>
  /** The domain's state machine; the kind's events are the ones it takes. */
  readonly transition: (record: Rec, event: Ev) => Either.Either<Changed<Rec, NoInfer<Eff>>, IllegalTransition>
  readonly carryOut: (record: Rec, effect: Eff) => Effect.Effect<void, never, RC>
  /** Whether a piece of work is under way: only that can still fail. */
  readonly isWorking: (record: Rec) => boolean
  /** The event that ends the work as failed, with whatever must precede it (a refund the record states). */
  readonly failed: (record: Rec, message: string, at: string) => Effect.Effect<NoInfer<Ev>, never, RF>
  readonly hasReachedStep: (record: Rec, step: Rec["step"]) => boolean
  readonly stepStarted: (step: Rec["step"], at: string) => NoInfer<Ev>
  /** The presenter: the public object, as GET answers it and as the end event carries it under `webhookField`. */
  readonly present: (record: Rec) => Effect.Effect<unknown, never, RP>
  readonly webhookField: string
}

/** What the lifecycle itself needs besides the kind's services: transactions, and the outbox with its delivery job. */
export type LifecycleServices = Transactor | Outbox | JobQueue

export interface WorkLifecycle<Rec extends WorkRecord, Ev, R> {
  readonly idKey: string
  readonly store: Effect.Effect<WorkStore<Rec>, never, R>
  /** The record held against other writers until the transaction ends; a record that vanished is a defect. */
  readonly held: (id: string) => Effect.Effect<Rec, never, R>
  /** Applies the event (stamped with the time) with all it causes, in one transaction. An illegal transition is a defect. */
  readonly apply: (id: string, event: (at: string) => Ev) => Effect.Effect<Rec, never, R | LifecycleServices>
  /** Ends the running work as failed, unless it already ended (a retried job, or a cancel that came first). */
  readonly fail: (id: string, failure: WorkFailed) => Effect.Effect<void, never, R | LifecycleServices>
  /**
   * Records the step (unless a crashed run already got that far: the retried job redoes the work but the
   * step never moves back), runs the work, and logs how long it took.
   */
  readonly step: <A, E, R2>(
    record: Rec,
    step: Rec["step"],
    work: Effect.Effect<A, E, R2>
  ) => Effect.Effect<A, E, R | R2 | LifecycleServices>
}

/** URLs in a failure's text as their origin only: a source URL may carry a secret in its path or query. */
const originsOnly = (text: string): string => text.replace(/\bhttps?:\/\/\S+?(?=[.,;:)]*(?:\s|$))/g, (url) => redactUrl(url))

const isEmit = <Eff extends Tagged>(effect: Emit | Eff): effect is Emit => effect._tag === "Emit"

const stepDurationOf = seriesOf(stepDuration, "kind", "step")

const atomically = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.flatMap(Transactor, (tx) => tx.atomically(self))

export const workLifecycle = <Rec extends WorkRecord, Ev extends { readonly at: string }, Eff extends Tagged, RS, RC, RF, RP>(
  kind: WorkKind<Rec, Ev, Eff, RS, RC, RF, RP>
): WorkLifecycle<Rec, Ev, RS | RC | RF | RP> => {
  const idKey = `${kind.name}Id`
  const stepLog = kind.stepLog ?? `${kind.name} step`

  const find = (id: string) => Effect.flatMap(kind.store, (store) => store.getForUpdate(id))
  const held = (id: string) =>
    Effect.flatMap(find(id), Option.match({ onNone: () => Effect.dieMessage(`${kind.name} ${id} vanished`), onSome: Effect.succeed }))

  const announce = (record: Rec, emit: Emit) => {
    const url = record.webhookUrl
    return url === null ? Effect.void : Effect.flatMap(kind.present(record), (snapshot) =>
      queueWebhookEvent({
        workspaceId: record.workspaceId,
        name: emit.event,
        subjectId: record.id,
        dedupeKey: `${emit.event.split(".")[0]}:${emit.dedupeKey}`,
        payload: { [kind.webhookField]: snapshot },
        url
      }))
  }

  const applyHeld = (current: Rec, event: Ev) =>
    Effect.gen(function*() {
      const result = kind.transition(current, event)
      if (Either.isLeft(result)) return yield* Effect.die(result.left)
      const { record, effects } = result.right
      yield* (yield* kind.store).update(record)
      for (const effect of effects) yield* isEmit(effect) ? announce(record, effect) : kind.carryOut(record, effect)
      return record
    })

  const apply = (id: string, event: (at: string) => Ev) =>
    Effect.gen(function*() {
      const current = yield* held(id)
      return yield* applyHeld(current, event(yield* nowIso))
    }).pipe(atomically, withSpan(`${kind.name}.apply`, { attributes: { [idKey]: id } }))

  const fail = (id: string, failure: WorkFailed) =>
    Effect.gen(function*() {
      const current = yield* find(id)
      if (Option.isNone(current) || !kind.isWorking(current.value)) return Option.none()
      return Option.some(yield* applyHeld(current.value, yield* kind.failed(current.value, failure.message, yield* nowIso)))
    }).pipe(
      atomically,
      // Once committed: the work failed for its user, with this message (the job that ran it ends Done).
      Effect.flatMap(Option.match({
        onNone: () => Effect.void,
        onSome: (record) =>
          Effect.logWarning(`${kind.name} failed`).pipe(
            Effect.annotateLogs({ [idKey]: id, workspaceId: record.workspaceId, error: originsOnly(failure.message) })
          )
      })),
      withSpan(`${kind.name}.fail`, { attributes: { [idKey]: id } })
    )

  const step = <A, E, R2>(record: Rec, name: Rec["step"], work: Effect.Effect<A, E, R2>) =>
    (kind.hasReachedStep(record, name)
      ? Effect.void
      : Effect.asVoid(apply(record.id, (at) => kind.stepStarted(name, at)))).pipe(
      Effect.zipRight(work),
      Effect.timed,
      Effect.tap(([duration]) =>
        Effect.logInfo(`${stepLog} ${name} done`).pipe(
          Effect.annotateLogs({ [idKey]: record.id, step: name, durationMs: Math.round(Duration.toMillis(duration)) }),
          Effect.zipRight(FiberRef.get(currentJobKind)),
          Effect.flatMap((kind) =>
            Metric.update(stepDurationOf(kind, name), Duration.toSeconds(duration))
          )
        )
      ),
      Effect.map(([, a]) => a),
      withSpan(`${kind.name}.step.${name}`, { attributes: { [idKey]: record.id, step: name } })
    )

  return { idKey, store: kind.store, held, apply, fail, step }
}
