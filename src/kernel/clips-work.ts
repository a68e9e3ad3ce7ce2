// Clips as a kind of work: their store, their state machine (domain/clips.ts), and their refund, made
// before the failure so that the record states how many credits went back.
import { absurd, Effect } from "effect"
import { type ClipsEvent, clipsTransition, clipsWorkKey, hasReachedClipsStep, isTerminal } from "../../domain/clips.ts"
import { ClipsStore } from "../../domain/ports/clips-store.ts"
import { presentClips } from "./present-clips.ts"
import { refundCredits } from "./refund-credits.ts"
import { workLifecycle } from "./work-lifecycle.ts"

export const clipsWork = workLifecycle({
  name: "clips",
  store: ClipsStore,
  transition: clipsTransition,
  // The record's only effect is its end event, which the lifecycle sends.
  carryOut: (_, effect: never) => absurd<Effect.Effect<void>>(effect),
  isWorking: (clips) => !isTerminal(clips),
  failed: (clips, message, at) =>
    Effect.map(refundCredits(clipsWorkKey(clips.id), at), (refundedCredits): ClipsEvent => ({ _tag: "Failed", error: message, refundedCredits, at })),
  hasReachedStep: hasReachedClipsStep,
  stepStarted: (step, at): ClipsEvent => ({ _tag: "StepStarted", step, at }),
  present: presentClips,
  webhookField: "clips"
})
