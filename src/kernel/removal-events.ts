// Applies one domain event to a stored caption removal, in one transaction with what it causes: its
// webhook event when it ends, the refund of its charges when it fails. The removal's counterpart of
// video-events.ts, through the same outbox and delivery schedule.
import { Clock, Effect, Either, Option } from "effect"
import { applyRemovalEvent, type CaptionRemovalRecord, isTerminal, type RemovalEvent } from "../../domain/caption-removal.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import type { FileStore } from "../../domain/ports/file-store.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { Outbox } from "../../domain/ports/outbox.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import { presentCaptionRemoval } from "./present-caption-removal.ts"
import { queueWebhookEvent } from "./queue-webhook-event.ts"
import { refundCredits } from "./refund-credits.ts"
import { newId } from "./secrets.ts"
import type { ServiceConfig } from "./service-config.ts"

export type RemovalEventServices = CaptionRemovalStore | Ledger | Outbox | JobQueue | FileStore | ServiceConfig | Transactor

/** The removal's charges and refunds share this work key in the ledger. */
export const removalWorkKey = (removalId: string): string => `removal:${removalId}`

const emitEnd = (removal: CaptionRemovalRecord) => {
  const url = removal.webhookUrl
  return url === null
    ? Effect.void
    : Effect.flatMap(presentCaptionRemoval(removal), (snapshot) =>
      queueWebhookEvent({
        workspaceId: removal.workspaceId,
        name: removal.status === "completed" ? "caption_removal.completed" : "caption_removal.failed",
        subjectId: removal.id,
        // One end event per removal, whichever it is.
        dedupeKey: `caption_removal:${removal.id}`,
        payload: { captionRemoval: snapshot },
        url
      }))
}

const held = (removalId: string) =>
  Effect.flatMap(CaptionRemovalStore, (store) => store.getForUpdate(removalId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.dieMessage(`caption removal ${removalId} vanished`), onSome: Effect.succeed }))
  )

const applyHeld = (current: CaptionRemovalRecord, event: RemovalEvent) =>
  Effect.gen(function*() {
    const result = applyRemovalEvent(current, event)
    if (Either.isLeft(result)) return yield* Effect.die(result.left)
    const next = result.right
    yield* (yield* CaptionRemovalStore).update(next)
    if (!isTerminal(current) && isTerminal(next)) yield* emitEnd(next)
    return next
  })

/** Loads the removal held against other writers, applies the event, stores it; an illegal transition is a defect. */
export const updateRemoval = (removalId: string, event: (at: string) => RemovalEvent) =>
  Effect.gen(function*() {
    const current = yield* held(removalId)
    return yield* applyHeld(current, event(new Date(yield* Clock.currentTimeMillis).toISOString()))
  }).pipe(
    (self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)),
    Effect.withSpan("updateRemoval", { attributes: { removalId } })
  )

/** What a removal pays for: the first minute of finding text (at create), the rest of it, and the wipe. */
export type RemovalCharge = "start" | "analysis" | "wipe"

const REASONS: Record<RemovalCharge, string> = {
  start: "caption removal: finding text (first minute)",
  analysis: "caption removal: finding text",
  wipe: "caption removal: wiping"
}

/** Posts one charge of the removal in the ledger, once: its key makes a retried job charge nothing more. True when it was new. */
export const postRemovalCharge = (removal: CaptionRemovalRecord, item: RemovalCharge, credits: number, at: string) =>
  Effect.gen(function*() {
    const id = newId()
    const entry = yield* (yield* Ledger).post({
      id,
      workspaceId: removal.workspaceId,
      key: `${removalWorkKey(removal.id)}:${item}`,
      amount: -credits,
      reason: REASONS[item],
      operation: "caption removal",
      workKey: removalWorkKey(removal.id),
      videoId: null,
      at
    })
    return entry.id === id
  })

/** Charges one item of the removal while it is still processing. Short credits fail the work with what is needed and what is there. */
export const chargeRemoval = (removalId: string, item: RemovalCharge, credits: number) =>
  Effect.gen(function*() {
    const current = yield* held(removalId)
    if (isTerminal(current)) return yield* new WorkFailed({ message: "The removal had already ended when it was to be charged." })
    if (credits <= 0) return
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const posted = yield* postRemovalCharge(current, item, credits, at).pipe(Effect.catchTag("InsufficientCredits", (e) =>
      new WorkFailed({
        message: `insufficient credits: needs ${e.required}, has ${e.balance}. The removal was not charged further; top up credits and create it again.`
      })))
    if (posted) yield* applyHeld(current, { _tag: "Charged", credits, at })
  }).pipe(
    (self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)),
    Effect.withSpan("chargeRemoval", { attributes: { removalId, item, credits } })
  )

/** Ends a removal as failed, paying back every charge it made, unless it already ended. */
export const failRemoval = (removalId: string, failure: WorkFailed) =>
  Effect.gen(function*() {
    const current = yield* held(removalId)
    if (isTerminal(current)) return
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const refunded = yield* refundCredits(removalWorkKey(removalId), at)
    yield* applyHeld(current, { _tag: "Failed", error: failure.message, refundedCredits: refunded, at })
  }).pipe(
    (self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)),
    Effect.withSpan("failRemoval", { attributes: { removalId } })
  )
