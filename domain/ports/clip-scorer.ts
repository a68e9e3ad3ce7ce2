import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"

/** A stretch of a talk to score, as a reader of it sees it. */
export interface ScoredText {
  readonly text: string
  /** The offline score (clip-selection.ts), 0-100. */
  readonly score: number
}

export interface ClipScorerShape {
  /** Names the scorer in logs: `offline`, or the chat model's name. */
  readonly name: string
  /** How many of the offline scorer's best it rescores; the offline scorer takes them all. */
  readonly shortlist: number
  /** A score 0-100 for each stretch, in their order. */
  readonly score: (request: { readonly workspaceId: string; readonly candidates: ReadonlyArray<ScoredText> }) => Effect.Effect<ReadonlyArray<number>, WorkFailed>
}
export class ClipScorer extends Context.Tag("ClipScorer")<ClipScorer, ClipScorerShape>() {}
