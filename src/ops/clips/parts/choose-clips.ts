// The clips chosen from a transcript: the best stretches that do not overlap by the offline score, as
// many as the scorer reads (all of them offline), scored again by the configured scorer (a chat model
// where one is set), and the best `count` of those kept. A scorer that fails leaves the offline scores.
import { Effect } from "effect"
import type { TimedWord } from "../../../../domain/captions.ts"
import { type ClipBounds, clipCandidates, clipText, pickClips } from "../../../../domain/clip-selection.ts"
import { ClipScorer } from "../../../../domain/ports/clip-scorer.ts"
import { withSpan } from "../../../kernel/spans.ts"

export const chooseClips = (words: ReadonlyArray<TimedWord>, bounds: ClipBounds, durationSeconds: number, workspaceId: string) =>
  Effect.gen(function*() {
    const scorer = yield* ClipScorer
    const shortlist = pickClips(clipCandidates(words, bounds, durationSeconds), Math.max(scorer.shortlist, bounds.count))
    const scores = yield* scorer.score({ workspaceId, candidates: shortlist.map((c) => ({ text: clipText(words, c), score: c.score })) }).pipe(
      Effect.catchTag("WorkFailed", (failure) =>
        Effect.logWarning("clips scored offline: the scorer failed").pipe(
          Effect.annotateLogs({ scorer: scorer.name, error: failure.message }),
          Effect.as(shortlist.map((c) => c.score))
        ))
    )
    return pickClips(shortlist.map((c, i) => ({ ...c, score: scores[i] ?? c.score })), bounds.count)
  }).pipe(withSpan("chooseClips", { attributes: { words: words.length } }))
