// Pays back every credit charge a piece of work made, once per charge (the refund's key is the
// charge's key with ":refund", so a repeat posts nothing new). Shared by videos and caption removals.
import { Effect } from "effect"
import { Ledger } from "../../domain/ports/ledger.ts"
import { countRefund, postedNow } from "./credit-metrics.ts"
import { newId } from "./secrets.ts"

/** Refunds the work's credit charges at `at`; answers how many credits went back. */
export const refundCredits = (workKey: string, at: string) =>
  Effect.gen(function*() {
    const ledger = yield* Ledger
    let refunded = 0
    for (const charge of (yield* ledger.entriesForWork(workKey)).filter((e) => e.amount < 0)) {
      const refund = {
        id: newId(),
        workspaceId: charge.workspaceId,
        key: `${charge.key}:refund`,
        amount: -charge.amount,
        reason: `refund: ${charge.reason}`,
        operation: "refund",
        workKey: charge.workKey,
        videoId: charge.videoId,
        at
      } as const
      const entry = yield* ledger.post(refund).pipe(Effect.orDie) // a refund is never refused
      if (postedNow(refund, entry)) yield* countRefund(charge.operation, entry.amount)
      refunded += -charge.amount
    }
    return refunded
  })
