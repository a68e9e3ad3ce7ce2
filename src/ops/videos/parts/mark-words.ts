// `emphasis: auto` and `emoji: auto` at work: the words a project's captions stand out on and the
// emoji beside its lines, chosen in the lines the captions will be shown in, from the word lists and,
// for emphasis where the speech is at hand, its loudness.
import { Effect, Option } from "effect"
import { type CaptionEdits, NO_EDITS } from "../../../../domain/caption-edits.ts"
import { chooseEmoji } from "../../../../domain/caption-emoji.ts"
import { chooseEmphasis } from "../../../../domain/caption-emphasis.ts"
import { type CaptionPage, layoutCaptions, layoutRulesOf, type TimedWord } from "../../../../domain/captions.ts"
import { EmojiKeywords } from "../../../../domain/ports/emoji-keywords.ts"
import { MediaEngine } from "../../../../domain/ports/media-engine.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { WordFrequency } from "../../../../domain/ports/word-frequency.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { burnStyleFor } from "../../caption-templates/parts/resolve-template.ts"
import { withSpan } from "../../../kernel/spans.ts"

type Project = Pick<VideoRecord, "workspaceId" | "templateId" | "kind">

/** The lines the words will be shown in, for these edits (their style and line breaks) on the video's template. */
const linesFor = (video: Project, edits: Pick<CaptionEdits, "style" | "lineStarts">, words: ReadonlyArray<TimedWord>) =>
  Effect.map(burnStyleFor(video, edits.style), ({ style }): ReadonlyArray<CaptionPage> => layoutCaptions(words, layoutRulesOf(style), edits.lineStarts))

/** The words with emphasis chosen afresh for these edits on the video's template. */
export const chooseEmphasisFor = (
  video: Project,
  edits: Pick<CaptionEdits, "style" | "lineStarts">,
  words: ReadonlyArray<TimedWord>,
  loudness?: ReadonlyArray<number>
) =>
  Effect.gen(function*() {
    const { rank } = yield* WordFrequency
    return chooseEmphasis(words, yield* linesFor(video, edits, words), { rank, loudness })
  }).pipe(withSpan("chooseEmphasis", { attributes: { words: words.length } }))

/** The words with an emoji chosen afresh for each line, for these edits on the video's template. */
export const chooseEmojiFor = (video: Project, edits: Pick<CaptionEdits, "style" | "lineStarts">, words: ReadonlyArray<TimedWord>) =>
  Effect.gen(function*() {
    const { emojiFor } = yield* EmojiKeywords
    return chooseEmoji(words, yield* linesFor(video, edits, words), { emojiFor })
  }).pipe(withSpan("chooseEmoji", { attributes: { words: words.length } }))

/**
 * The words a generation job saves: with emphasis (the speech's loudness measured from `wav` where
 * there is one) and emoji chosen where the project asked for them; else as they are.
 */
export const markGenerated = (video: VideoRecord, words: ReadonlyArray<TimedWord>, wav?: string) =>
  Effect.gen(function*() {
    const edits = Option.getOrElse(yield* (yield* VideoStore).getCaptionEdits(video.id), () => NO_EDITS)
    const loudness = edits.emphasis !== "auto" || wav === undefined ? undefined : yield* (yield* MediaEngine).spanLoudness(wav, words)
    const emphasised = edits.emphasis === "auto" ? yield* chooseEmphasisFor(video, edits, words, loudness) : words
    return edits.emoji === "auto" ? yield* chooseEmojiFor(video, edits, emphasised) : emphasised
  })
