// `emphasis: auto` at work: the words a project's captions stand out on, chosen in the lines the
// captions will be shown in, from the word list and, where the speech is at hand, its loudness.
import { Effect, Option } from "effect"
import { type CaptionEdits, NO_EDITS } from "../../../../domain/caption-edits.ts"
import { chooseEmphasis } from "../../../../domain/caption-emphasis.ts"
import { layoutCaptions, layoutRulesOf, type TimedWord } from "../../../../domain/captions.ts"
import { MediaEngine } from "../../../../domain/ports/media-engine.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { WordFrequency } from "../../../../domain/ports/word-frequency.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { burnStyleFor } from "../../caption-templates/parts/resolve-template.ts"

/** The words with emphasis chosen afresh for these edits (their style and line breaks) on the video's template. */
export const chooseEmphasisFor = (
  video: Pick<VideoRecord, "workspaceId" | "templateId" | "kind">,
  edits: Pick<CaptionEdits, "style" | "lineStarts">,
  words: ReadonlyArray<TimedWord>,
  loudness?: ReadonlyArray<number>
) =>
  Effect.gen(function*() {
    const { style } = yield* burnStyleFor(video, edits.style)
    const { rank } = yield* WordFrequency
    return chooseEmphasis(words, layoutCaptions(words, layoutRulesOf(style), edits.lineStarts), { rank, loudness })
  }).pipe(Effect.withSpan("chooseEmphasis", { attributes: { words: words.length } }))

/**
 * The words a generation job saves: with emphasis chosen when the project asked for it, the speech's
 * loudness measured from `wav` where there is one; else as they are.
 */
export const emphasiseGenerated = (video: VideoRecord, words: ReadonlyArray<TimedWord>, wav?: string) =>
  Effect.gen(function*() {
    const edits = Option.getOrElse(yield* (yield* VideoStore).getCaptionEdits(video.id), () => NO_EDITS)
    if (edits.emphasis !== "auto") return words
    const loudness = wav === undefined ? undefined : yield* (yield* MediaEngine).spanLoudness(wav, words)
    return yield* chooseEmphasisFor(video, edits, words, loudness)
  })
