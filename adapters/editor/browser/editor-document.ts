// What the web editor edits (words and their emphasis, line breaks, template, style adjustments, hook,
// platform, the emphasis mode, the trim's cuts) and
// every edit as a function from one document to the next, so undo only has to keep the old ones.
// Pure: it runs in the page, and in Node for tests.
import {
  adjustedStyle,
  lineStartsOf,
  mergeWithNext,
  splitLineAt,
  splitSpacedWords,
  type StyleAdjustments
} from "../../../domain/caption-edits.ts"
import type { EmphasisMode } from "../../../domain/caption-emphasis.ts"
import { type CaptionHook, HOOK_DEFAULT_SECONDS, HOOK_MAX_CHARACTERS, HOOK_SECONDS } from "../../../domain/caption-hook.ts"
import { type CaptionLine, type CaptionPage, type CaptionStyle, isOneEmoji, layoutCaptions, layoutRulesOf, placementOf, type TimedWord } from "../../../domain/captions.ts"
import { captionStyleFor } from "../../../domain/generated-project.ts"
import type { Framing } from "../../../domain/reframe.ts"
import { type Platform, type SafeZone, zonesEntered } from "../../../domain/safe-zones.ts"
import type { Cut } from "../../../domain/trim.ts"
import type { VideoKind } from "../../../domain/video.ts"
import { assSubtitles, type EmojiSpot, emojiSpots, type TextMeasure } from "../../media/ass-subtitles.ts"

export interface EditorDocument {
  readonly words: ReadonlyArray<TimedWord>
  readonly lineStarts: ReadonlyArray<number> | null
  readonly templateId: number
  readonly adjustments: StyleAdjustments
  readonly hook: CaptionHook | null
  readonly platform: Platform
  /** `auto`: the server chose the words' flags (it chooses afresh when the mode is saved as auto); `off`: none unless a person set them. */
  readonly emphasis: EmphasisMode
  /** Spans of the source the export leaves out: the trim's, less those a person restored. */
  readonly cuts: ReadonlyArray<Cut>
  /** A reframed video's windows over the source (keys a person placed included); null when it is not reframed. */
  readonly framing: Framing | null
}

/** What a document looks like: the style the controls show, the pages and the script the export burns. */
export interface Rendering {
  /** The template's style with the adjustments over it (a video kind may still override it when burned, e.g. gameplay's centred captions). */
  readonly chosen: CaptionStyle
  readonly pages: ReadonlyArray<CaptionPage>
  readonly ass: string
  /** Where and when the export draws each line's emoji (none until the caption font is measured). */
  readonly emoji: ReadonlyArray<EmojiSpot>
  /** The platform's zones the block reaches into where the person placed it: the export moves it clear of them. */
  readonly entered: ReadonlyArray<SafeZone>
}

/** The video the captions are drawn over. */
export interface VideoShape {
  readonly kind: string
  readonly width: number
  readonly height: number
}

/** The same computation as the export's (captionsToBurn, then the ASS the worker burns), so the preview matches it. */
export const renderDocument = (doc: EditorDocument, template: CaptionStyle, video: VideoShape, measure?: TextMeasure): Rendering => {
  const chosen = adjustedStyle(template, doc.adjustments)
  const style = captionStyleFor(video.kind as VideoKind, chosen)
  const pages = layoutCaptions(doc.words, layoutRulesOf(style), doc.lineStarts)
  const { width, height } = video
  const track = { pages, style, width, height, format: "standard" as const, hook: doc.hook, platform: doc.platform, measure }
  return {
    chosen,
    pages,
    ass: assSubtitles(track),
    emoji: emojiSpots(track),
    entered: zonesEntered({ ...style, ...placementOf(style) }, doc.platform, width, height)
  }
}

/** The shortest a word may be dragged to on the timeline. */
export const MIN_WORD_SECONDS = 0.05

/**
 * A word's text changed: blank deletes the word, spaces make it several words sharing its time
 * (as the server would split it), so what is saved is what is shown.
 */
export const setWordText = (doc: EditorDocument, index: number, text: string): EditorDocument => {
  const word = doc.words[index]
  if (word === undefined) return doc
  const trimmed = text.trim()
  if (trimmed === "") return removeWord(doc, index)
  if (trimmed === word.text) return doc
  // A word a person typed is certain: its recogniser's confidence goes. A fixed typo keeps its emphasis
  // and emoji (a word split in several loses them, as the server splits it).
  const split = splitSpacedWords(
    doc.words.map((w, i) =>
      i === index
        ? withEmphasis({ text: trimmed, start: w.start, end: w.end, ...(w.emoji === undefined ? {} : { emoji: w.emoji }) }, w.emphasis === true)
        : w
    ),
    doc.lineStarts
  )
  return { ...doc, words: split.words, lineStarts: split.lineStarts }
}

/** Deletes a word; a line it began now begins with the word after it. */
export const removeWord = (doc: EditorDocument, index: number): EditorDocument => {
  if (doc.words[index] === undefined) return doc
  const words = doc.words.filter((_, i) => i !== index)
  const lineStarts = doc.lineStarts === null
    ? null
    : [...new Set(doc.lineStarts.map((s) => (s > index ? s - 1 : s)).filter((s) => s < words.length))]
  return { ...doc, words, lineStarts }
}

export const retimeWord = (doc: EditorDocument, index: number, times: { readonly start: number; readonly end: number }): EditorDocument => {
  const word = doc.words[index]
  if (word === undefined || (word.start === times.start && word.end === times.end)) return doc
  return { ...doc, words: doc.words.map((w, i) => (i === index ? { ...w, start: times.start, end: times.end } : w)) }
}

/**
 * How far a word's edges may be dragged: not over its neighbours (a word already overlapping one
 * keeps the room it has) nor outside the video, and never shorter than MIN_WORD_SECONDS.
 */
export const dragBounds = (
  words: ReadonlyArray<TimedWord>,
  index: number,
  durationSeconds: number
): { readonly start: readonly [number, number]; readonly end: readonly [number, number] } => {
  const word = words[index]!
  const earliest = Math.min(words[index - 1]?.end ?? 0, word.start)
  const latest = Math.max(words[index + 1]?.start ?? durationSeconds, word.end)
  return {
    start: [Math.max(0, earliest), Math.max(earliest, word.end - MIN_WORD_SECONDS)],
    end: [Math.min(latest, word.start + MIN_WORD_SECONDS), latest]
  }
}

export const clamp = (value: number, [low, high]: readonly [number, number]): number => Math.min(high, Math.max(low, value))

/** The line starts in force: the person's, or those of the automatic layout. */
export const lineStartsIn = (doc: EditorDocument, pages: ReadonlyArray<CaptionPage>): ReadonlyArray<number> =>
  doc.lineStarts ?? lineStartsOf(pages)

/** The index of the line holding word `at`. */
export const lineOf = (starts: ReadonlyArray<number>, at: number): number => {
  let line = 0
  starts.forEach((start, i) => {
    if (start <= at) line = i
  })
  return line
}

export const canSplitBefore = (starts: ReadonlyArray<number>, at: number): boolean => at > 0 && !starts.includes(at)

export const canMergeAfter = (starts: ReadonlyArray<number>, at: number): boolean => lineOf(starts, at) < starts.length - 1

/** Word `at` begins a new line. */
export const splitLineBefore = (doc: EditorDocument, pages: ReadonlyArray<CaptionPage>, at: number): EditorDocument => {
  const starts = lineStartsIn(doc, pages)
  return canSplitBefore(starts, at) ? { ...doc, lineStarts: splitLineAt(starts, at) } : doc
}

/** The line holding word `at` takes in the line after it. */
export const mergeLineAfter = (doc: EditorDocument, pages: ReadonlyArray<CaptionPage>, at: number): EditorDocument => {
  const starts = lineStartsIn(doc, pages)
  return canMergeAfter(starts, at) ? { ...doc, lineStarts: mergeWithNext(starts, lineOf(starts, at)) } : doc
}

type Adjustable = keyof StyleAdjustments

/**
 * Sets style fields over the template; a field set back to the template's value is dropped, so the
 * adjustments hold only real changes. A new position drops the margin, whose default differs per position.
 */
export const adjustStyle = (doc: EditorDocument, template: CaptionStyle, changes: StyleAdjustments): EditorDocument => {
  const merged: Record<string, unknown> = { ...doc.adjustments, ...changes }
  if (changes.position !== undefined && changes.position !== adjustedStyle(template, doc.adjustments).position && changes.marginRatio === undefined) {
    delete merged.marginRatio
  }
  for (const key of Object.keys(merged) as Array<Adjustable>) {
    if (merged[key] === template[key]) delete merged[key]
  }
  return { ...doc, adjustments: merged as StyleAdjustments }
}

/** Placement belongs to the video (what the picture leaves free), so it survives a template swap; the look does not. */
const PLACEMENT: ReadonlyArray<Adjustable> = ["position", "marginRatio"]

export const swapTemplate = (doc: EditorDocument, templateId: number, template: CaptionStyle): EditorDocument => {
  if (templateId === doc.templateId) return doc
  const kept = Object.fromEntries(PLACEMENT.flatMap((key) => (doc.adjustments[key] === undefined ? [] : [[key, doc.adjustments[key]]])))
  return adjustStyle({ ...doc, templateId, adjustments: {} }, template, kept)
}

/**
 * The hook as typed: blank text removes it; otherwise trimmed and cut as the server keeps it, its
 * seconds held within their range (a cleared field gives the default), so what is saved is what is shown.
 */
export const setHook = (doc: EditorDocument, text: string, seconds: number): EditorDocument => {
  const trimmed = text.trim().slice(0, HOOK_MAX_CHARACTERS).trim()
  const hook = trimmed === ""
    ? null
    : { text: trimmed, seconds: Number.isFinite(seconds) ? clamp(seconds, [HOOK_SECONDS.min, HOOK_SECONDS.max]) : HOOK_DEFAULT_SECONDS }
  const same = hook === null ? doc.hook === null : doc.hook !== null && hook.text === doc.hook.text && hook.seconds === doc.hook.seconds
  return same ? doc : { ...doc, hook }
}

/** Puts a cut span back into the output. */
export const restoreCut = (doc: EditorDocument, index: number): EditorDocument =>
  index < 0 || index >= doc.cuts.length ? doc : { ...doc, cuts: doc.cuts.filter((_, i) => i !== index) }

/** Where playback goes from `t` so that it plays the output: past the end of a cut it is inside, else on. */
export const pastCut = (cuts: ReadonlyArray<Cut>, t: number): number => cuts.find((cut) => t >= cut.start && t < cut.end)?.end ?? t

export const setPlatform = (doc: EditorDocument, platform: Platform): EditorDocument =>
  platform === doc.platform ? doc : { ...doc, platform }

/** The word with its emphasis flag set or left out (as the server stores a word without emphasis). */
export const withEmphasis = ({ emphasis: _, ...word }: TimedWord, on: boolean): TimedWord => (on ? { ...word, emphasis: true } : word)

/** The selected word stands out (the template's emphasis colour and size), or no longer does. */
export const toggleEmphasis = (doc: EditorDocument, index: number): EditorDocument => {
  const word = doc.words[index]
  if (word === undefined) return doc
  return { ...doc, words: doc.words.map((w, i) => (i === index ? withEmphasis(w, w.emphasis !== true) : w)) }
}

/**
 * The emphasis mode: `off` clears every word's flag here, as the server does when it is saved; `auto`
 * leaves the flags to the server, which chooses them when the mode is saved (the editor takes its answer).
 */
export const setEmphasisMode = (doc: EditorDocument, mode: EmphasisMode): EditorDocument => {
  if (mode === doc.emphasis) return doc
  return mode === "off" ? { ...doc, emphasis: mode, words: doc.words.map((w) => withEmphasis(w, false)) } : { ...doc, emphasis: mode }
}

/** The line holding word `index` in `pages`, and the index of the line's first word. */
export const lineHolding = (pages: ReadonlyArray<CaptionPage>, index: number): { readonly line: CaptionLine; readonly first: number } | undefined => {
  let first = 0
  for (const line of pages.flatMap((page) => page.lines)) {
    if (index < first + line.words.length) return index >= first ? { line, first } : undefined
    first += line.words.length
  }
  return undefined
}

/**
 * The emoji beside the line holding word `index`: on that word, and on no other word of its line (a
 * line shows its first word's emoji); null removes the line's emoji. Not one emoji: no change.
 */
export const setLineEmoji = (doc: EditorDocument, pages: ReadonlyArray<CaptionPage>, index: number, emoji: string | null): EditorDocument => {
  const held = lineHolding(pages, index)
  if (held === undefined || (emoji !== null && !isOneEmoji(emoji))) return doc
  const end = held.first + held.line.words.length
  const words = doc.words.map((w, i) => {
    if (i < held.first || i >= end) return w
    const { emoji: _, ...bare } = w
    return i === index && emoji !== null ? { ...bare, emoji } : bare
  })
  return { ...doc, words }
}

/** Whether two word lists of the same words flag the same ones. */
export const sameEmphasis = (a: ReadonlyArray<TimedWord>, b: ReadonlyArray<TimedWord>): boolean =>
  a.length === b.length && a.every((w, i) => (w.emphasis === true) === (b[i]!.emphasis === true))

/** The word being spoken at `seconds`, if any: a binary search over the words, which are in order. */
export const wordAt = (words: ReadonlyArray<TimedWord>, seconds: number): number | null => {
  let low = 0
  let high = words.length - 1
  let found = -1
  while (low <= high) {
    const mid = (low + high) >> 1
    if (words[mid]!.start <= seconds) {
      found = mid
      low = mid + 1
    } else {
      high = mid - 1
    }
  }
  return found >= 0 && seconds < words[found]!.end ? found : null
}
