// The clip scorer without a model: the domain's own scores (clip-selection.ts) stand.
import { Effect, Layer } from "effect"
import { ClipScorer } from "../../domain/ports/clip-scorer.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const OfflineClipScorerLive = Layer.succeed(
  ClipScorer,
  ClipScorer.of({
    name: "offline",
    shortlist: Number.POSITIVE_INFINITY,
    score: ({ candidates }) => Effect.succeed(candidates.map((c) => c.score)).pipe(withSpan("OfflineClipScorer.score"))
  })
)
