// What a removal pays for, posted in the ledger under its work key, so that a failure refunds it all.
import { Clock, Effect } from "effect"
import { type CaptionRemovalRecord, isTerminal, removalWorkKey } from "../../../../domain/caption-removal.ts"
import { WorkFailed } from "../../../../domain/errors.ts"
import { Ledger } from "../../../../domain/ports/ledger.ts"
import { Transactor } from "../../../../domain/ports/transactor.ts"
import { removalWork } from "../../../kernel/removal-work.ts"
import { newId } from "../../../kernel/secrets.ts"

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
    const current = yield* removalWork.held(removalId)
    if (isTerminal(current)) return yield* new WorkFailed({ message: "The removal had already ended when it was to be charged." })
    if (credits <= 0) return
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const posted = yield* postRemovalCharge(current, item, credits, at).pipe(Effect.catchTag("InsufficientCredits", (e) =>
      new WorkFailed({
        message: `insufficient credits: needs ${e.required}, has ${e.balance}. The removal was not charged further; top up credits and create it again.`
      })))
    // Recorded at the charge's time on the record still held.
    if (posted) yield* removalWork.apply(removalId, () => ({ _tag: "Charged", credits, at }))
  }).pipe(
    (self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)),
    Effect.withSpan("chargeRemoval", { attributes: { removalId, item, credits } })
  )
