// Caption removals as a kind of work: their store, their state machine (domain/caption-removal.ts), and
// their refund, made before the failure so that the record states how many credits went back.
import { absurd, Effect } from "effect"
import {
  hasReachedRemovalStep,
  isTerminal,
  type RemovalEvent,
  removalTransition,
  removalWorkKey
} from "../../domain/caption-removal.ts"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import { presentCaptionRemoval } from "./present-caption-removal.ts"
import { refundCredits } from "./refund-credits.ts"
import { workLifecycle } from "./work-lifecycle.ts"

export const removalWork = workLifecycle({
  name: "removal",
  store: CaptionRemovalStore,
  transition: removalTransition,
  // A removal's only effect is its end event, which the lifecycle sends.
  carryOut: (_, effect: never) => absurd<Effect.Effect<void>>(effect),
  isWorking: (removal) => !isTerminal(removal),
  failed: (removal, message, at) =>
    Effect.map(refundCredits(removalWorkKey(removal.id), at), (refundedCredits): RemovalEvent => ({ _tag: "Failed", error: message, refundedCredits, at })),
  hasReachedStep: hasReachedRemovalStep,
  stepStarted: (step, at): RemovalEvent => ({ _tag: "StepStarted", step, at }),
  present: presentCaptionRemoval,
  webhookField: "captionRemoval"
})
