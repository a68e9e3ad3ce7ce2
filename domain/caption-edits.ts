// What a person changed on a project's captions besides the words themselves: where lines break, how
// the template's style is adjusted, the hook title, the app whose overlays the captions avoid, whether
// emphasis and emoji are chosen automatically, and what is trimmed out. The editor and PATCH /v1/videos/:id/captions make the same
// edits through these rules, and the export reads them.
import { Either, Schema } from "effect"
import { type CaptionPage, type CaptionStyle, PartialCaptionStyle, type TimedWord } from "./captions.ts"
import type { EmojiMode } from "./caption-emoji.ts"
import type { EmphasisMode } from "./caption-emphasis.ts"
import type { CaptionHook } from "./caption-hook.ts"
import type { Platform } from "./safe-zones.ts"
import type { Framing, ReframeSettings } from "./reframe.ts"
import type { Cut, TrimSettings } from "./trim.ts"
import { commonSubsequence } from "./script-alignment.ts"

export const StyleAdjustments = PartialCaptionStyle.annotations({
  identifier: "StyleAdjustments",
  description: "Fields of the caption style that override the template's; `{}` uses the template as it is."
})
export type StyleAdjustments = typeof StyleAdjustments.Type

export const LineStarts = Schema.NullOr(Schema.Array(Schema.Int.pipe(Schema.nonNegative()))).annotations({
  description:
    "Indexes (into `words`) of the words that begin a caption line, ascending, the first one 0. Null lays lines out automatically from the style's `maxCharsPerLine`. Pages hold `linesPerPage` lines and also close at a pause or a sentence's end."
})

export interface CaptionEdits {
  /** Counts the saved edits: an edit sent with an older revision is refused rather than overwriting a newer one. */
  readonly revision: number
  readonly lineStarts: ReadonlyArray<number> | null
  readonly style: StyleAdjustments
  readonly hook: CaptionHook | null
  /** Whose interface overlays the captions and the hook keep out of. */
  readonly platform: Platform
  /** Whether words are chosen for emphasis automatically (the words' own flags are what is drawn). */
  readonly emphasis: EmphasisMode
  /** Whether emoji are chosen for the lines automatically (the words' own emoji are what is drawn). */
  readonly emoji: EmojiMode
  /** What the trim cuts (null: no trim asked); the cuts are what the export leaves out. */
  readonly trim: TrimSettings | null
  /** Spans of the source left out of the output, in order and apart: the trim's, less those a person restored. */
  readonly cuts: ReadonlyArray<Cut>
  /** The shape and mode asked of the output (null: the source's own frame). */
  readonly reframe: ReframeSettings | null
  /** Where the output's windows are in the source, planned once the source was looked at (null until then, or without a reframe). */
  readonly framing: Framing | null
}

export const NO_EDITS: CaptionEdits = {
  revision: 0,
  lineStarts: null,
  style: {},
  hook: null,
  platform: "none",
  emphasis: "off",
  emoji: "off",
  trim: null,
  cuts: [],
  reframe: null,
  framing: null
}

/** The style captions are burned in: the template's, with the adjustments over it. */
export const adjustedStyle = (template: CaptionStyle, adjustments: StyleAdjustments): CaptionStyle => ({ ...template, ...adjustments })

/** The line starts of a layout, so a person can split or merge its lines. */
export const lineStartsOf = (pages: ReadonlyArray<CaptionPage>): ReadonlyArray<number> => {
  const starts: Array<number> = []
  let index = 0
  for (const line of pages.flatMap((page) => page.lines)) {
    starts.push(index)
    index += line.words.length
  }
  return starts
}

/** What is wrong with an edit, and where (a path into the request body). */
export interface EditProblem {
  readonly field: string
  readonly message: string
}

/** A word's end may overrun the video by this much: recognisers round up. */
const END_SLACK_SECONDS = 0.5

/** Words in order, each inside the video and no shorter than nothing; text that is not blank. */
export const checkWords = (words: ReadonlyArray<TimedWord>, durationSeconds: number): Either.Either<ReadonlyArray<TimedWord>, EditProblem> => {
  for (const [i, word] of words.entries()) {
    const field = `words.${i}`
    if (word.text.trim() === "") return Either.left({ field: `${field}.text`, message: "A word cannot be blank: leave the word out to delete it." })
    if (!Number.isFinite(word.start) || word.start < 0) return Either.left({ field: `${field}.start`, message: "start must be a number of seconds, 0 or more." })
    if (!Number.isFinite(word.end) || word.end < word.start) return Either.left({ field: `${field}.end`, message: "end must not come before start." })
    if (word.end > durationSeconds + END_SLACK_SECONDS) {
      return Either.left({ field: `${field}.end`, message: `end is past the end of the video (${durationSeconds.toFixed(2)} s).` })
    }
    const previous = words[i - 1]
    if (previous !== undefined && word.start < previous.start) {
      return Either.left({ field: `${field}.start`, message: `Words must stay in order: this one starts before word ${i - 1}.` })
    }
  }
  return Either.right(words)
}

/** Line starts that point at words, in ascending order, beginning with the first word. */
export const checkLineStarts = (lineStarts: ReadonlyArray<number> | null, wordCount: number): Either.Either<ReadonlyArray<number> | null, EditProblem> => {
  if (lineStarts === null) return Either.right(null)
  if (wordCount > 0 && lineStarts[0] !== 0) return Either.left({ field: "lineStarts.0", message: "The first line starts at word 0." })
  for (const [i, start] of lineStarts.entries()) {
    if (start >= wordCount) return Either.left({ field: `lineStarts.${i}`, message: `There is no word ${start}: the captions have ${wordCount} words.` })
    if (i > 0 && start <= lineStarts[i - 1]!) return Either.left({ field: `lineStarts.${i}`, message: "Line starts must be ascending, each once." })
  }
  return Either.right(lineStarts)
}

/**
 * A word whose text was changed into several words ("gonna" -> "going to") becomes that many words,
 * sharing its time in proportion to their lengths; the line starts after it move along.
 */
export const splitSpacedWords = (
  words: ReadonlyArray<TimedWord>,
  lineStarts: ReadonlyArray<number> | null
): { readonly words: ReadonlyArray<TimedWord>; readonly lineStarts: ReadonlyArray<number> | null } => {
  const out: Array<TimedWord> = []
  const firstOf: Array<number> = []
  for (const word of words) {
    firstOf.push(out.length)
    const parts = word.text.trim().split(/\s+/)
    const letters = parts.reduce((n, part) => n + part.length, 0)
    let at = word.start
    if (parts.length === 1) {
      out.push({ ...word, text: parts[0]! })
      continue
    }
    for (const part of parts) {
      const end = part === parts.at(-1) ? word.end : at + ((word.end - word.start) * part.length) / letters
      out.push({ text: part, start: at, end })
      at = end
    }
  }
  return { words: out, lineStarts: lineStarts === null ? null : lineStarts.map((i) => firstOf[i] ?? out.length) }
}

/** Splits the line holding word `at` so that word begins a new line (the current layout's lines are given). */
export const splitLineAt = (lineStarts: ReadonlyArray<number>, at: number): ReadonlyArray<number> =>
  lineStarts.includes(at) ? lineStarts : [...lineStarts, at].sort((a, b) => a - b)

/** Joins line `line` with the line after it. */
export const mergeWithNext = (lineStarts: ReadonlyArray<number>, line: number): ReadonlyArray<number> =>
  lineStarts.filter((_, i) => i !== line + 1)

/** A run of edited words, end exclusive. */
export interface WordRun {
  readonly first: number
  readonly end: number
}

/**
 * The runs of `edited` words a person typed: those not among the stored words (the longest common
 * subsequence of their texts). Their times are the editor's guess (a retyped word's time shared by
 * length) until they are aligned to the audio.
 */
export const retypedRuns = (stored: ReadonlyArray<TimedWord>, edited: ReadonlyArray<TimedWord>): ReadonlyArray<WordRun> => {
  const kept = new Set(commonSubsequence(edited.map((w) => w.text), stored.map((w) => w.text)).map(([i]) => i))
  const runs: Array<WordRun> = []
  edited.forEach((_, i) => {
    if (kept.has(i)) return
    const last = runs.at(-1)
    if (last !== undefined && last.end === i) runs[runs.length - 1] = { first: last.first, end: i + 1 }
    else runs.push({ first: i, end: i + 1 })
  })
  return runs
}
