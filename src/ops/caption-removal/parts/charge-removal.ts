// What a removal pays for, posted in the ledger under its work key, so that a failure refunds it all.
import { type CaptionRemovalRecord, isTerminal, type RemovalEvent, removalWorkKey } from "../../../../domain/caption-removal.ts"
import { removalWork } from "../../../kernel/removal-work.ts"
import { chargeHeldWork, type HeldCharge, postHeldCharge } from "../../../shared/credits/charge-held-work.ts"

/** What a removal pays for: the first minute of finding text (at create), the rest of it, and the wipe. */
export type RemovalCharge = "start" | "analysis" | "wipe"

const REASONS: Record<RemovalCharge, string> = {
  start: "caption removal: finding text (first minute)",
  analysis: "caption removal: finding text",
  wipe: "caption removal: wiping"
}

const removalCharge = (removalId: string, item: RemovalCharge, credits: number): HeldCharge => ({
  key: `${removalWorkKey(removalId)}:${item}`,
  workKey: removalWorkKey(removalId),
  reason: REASONS[item],
  operation: "caption removal",
  credits
})

/** Posts one charge of the removal in the ledger, once: its key makes a retried job charge nothing more. True when it was new. */
export const postRemovalCharge = (removal: CaptionRemovalRecord, item: RemovalCharge, credits: number, at: string) =>
  postHeldCharge(removal, removalCharge(removal.id, item, credits), at)

/** Charges one item of the removal while it is still processing. Short credits fail the work with what is needed and what is there. */
export const chargeRemoval = (removalId: string, item: RemovalCharge, credits: number) =>
  chargeHeldWork(
    removalWork,
    { name: "removal", isWorking: (removal) => !isTerminal(removal), charged: (credits, at): RemovalEvent => ({ _tag: "Charged", credits, at }) },
    removalId,
    removalCharge(removalId, item, credits),
    "The removal was not charged further; top up credits and create it again."
  )
