// What a clips record pays for, posted in the ledger under its work key, so that a failure refunds it all:
// transcribing the whole source (at the captions' rate) and choosing the clips.
import { type ClipsEvent, clipsWorkKey, isTerminal } from "../../../../domain/clips.ts"
import type { CreditOperation } from "../../../../domain/credit-operation.ts"
import { clipsWork } from "../../../kernel/clips-work.ts"
import { chargeHeldWork } from "../../../shared/credits/charge-held-work.ts"

export type ClipsCharge = "transcription" | "selection"

const ENTRIES: Record<ClipsCharge, { readonly reason: string; readonly operation: CreditOperation }> = {
  transcription: { reason: "clips: transcribing the source", operation: "captions" },
  selection: { reason: "clips: choosing the clips", operation: "clip selection" }
}

/** Charges one item of the record while it is still processing. Short credits fail the work with what is needed and what is there. */
export const chargeClips = (clipsId: string, item: ClipsCharge, credits: number) =>
  chargeHeldWork(
    clipsWork,
    { name: "clips record", isWorking: (clips) => !isTerminal(clips), charged: (credits, at): ClipsEvent => ({ _tag: "Charged", credits, at }) },
    clipsId,
    { key: `${clipsWorkKey(clipsId)}:${item}`, workKey: clipsWorkKey(clipsId), ...ENTRIES[item], credits },
    "Nothing more was charged; top up credits and create the clips again."
  )
