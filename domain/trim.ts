// Tighter edits of a spoken video: the pauses longer than a pace allows and the filler words (um, uh,
// repeated words) cut out, from the words' times. Cuts are spans of the source; the export keeps what
// lies between them, and the captions move to the shortened timeline. A person may restore any cut.
import { Either, Schema } from "effect"
import type { EditProblem } from "./caption-edits.ts"
import type { TimedWord } from "./captions.ts"

export const SilencePace = Schema.Literal("off", "natural", "fast", "extra-fast").annotations({
  description:
    "Which pauses are cut: `natural` those of 0.6 s or more, `fast` 0.2 s or more, `extra-fast` 0.1 s or more, each shortened to a breath (0.3, 0.12 or 0.06 s); pauses before the first word and after the last go too. `off` cuts none."
})
export type SilencePace = typeof SilencePace.Type

export const TrimSettings = Schema.Struct({
  silence: SilencePace,
  fillers: Schema.Boolean.annotations({
    description: "true: cut filler words (um, uh, erm, hmm…) and the first of a word said twice in a row (\"the the\")."
  })
}).annotations({
  identifier: "TrimSettings",
  description: "Cut pauses and filler words. The output is shorter: `duration` is the output's, and the render is charged on it."
})
export type TrimSettings = typeof TrimSettings.Type

export const CutReason = Schema.Literal("silence", "filler", "repeat")
export type CutReason = typeof CutReason.Type

export const Cut = Schema.Struct({
  start: Schema.Number.annotations({ description: "Seconds from the start of the source." }),
  end: Schema.Number.annotations({ description: "Seconds from the start of the source; after `start`." }),
  reason: CutReason.annotations({ description: "What was cut: a pause, a filler word, or a word said twice." })
}).annotations({ identifier: "Cut", description: "A span of the source left out of the output." })
export type Cut = typeof Cut.Type

interface Pace {
  /** Pauses this long or longer are cut. */
  readonly longest: number
  /** What is left of a cut pause, half on each side: the speaker still breathes. */
  readonly keep: number
}

const PACES: Readonly<Record<Exclude<SilencePace, "off">, Pace>> = {
  natural: { longest: 0.6, keep: 0.3 },
  fast: { longest: 0.2, keep: 0.12 },
  "extra-fast": { longest: 0.1, keep: 0.06 }
}

/** Around a cut filler when pauses are not cut. */
const FILLER_KEEP = 0.1

/** Shorter cuts are left alone: they would save nothing anyone notices. */
const MIN_CUT = 0.05

/** Cuts fall on frame boundaries of this rate, so the picture and the sound lose the same time (1/30 s is also a 60 fps boundary). */
const FRAME_GRID = 30

const FILLERS = new Set(["um", "umm", "uh", "uhh", "uhm", "erm", "er", "err", "ah", "hmm", "hm", "mm", "mhm"])

const bare = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}']/gu, "")

export const isFiller = (text: string): boolean => FILLERS.has(bare(text))

/** Why the word is cut, or null when it stays: a filler, or a word the next one repeats. */
const removal = (words: ReadonlyArray<TimedWord>, i: number): CutReason | null => {
  const word = words[i]!
  if (isFiller(word.text)) return "filler"
  const next = words[i + 1]
  return next !== undefined && bare(next.text) !== "" && bare(next.text) === bare(word.text) && next.start - word.end < 1 ? "repeat" : null
}

const snapped = (cut: Cut): Cut | null => {
  // Inwards: a cut never grows into the speech around it.
  const start = Math.max(0, Math.ceil(cut.start * FRAME_GRID - 1e-6) / FRAME_GRID)
  const end = Math.floor(cut.end * FRAME_GRID + 1e-6) / FRAME_GRID
  return end - start >= MIN_CUT ? { ...cut, start, end } : null
}

/** The cuts the settings ask for, in order and apart, on frame boundaries. */
export const planCuts = (words: ReadonlyArray<TimedWord>, durationSeconds: number, settings: TrimSettings): ReadonlyArray<Cut> => {
  const pace = settings.silence === "off" ? null : PACES[settings.silence]
  const keep = pace?.keep ?? FILLER_KEEP
  const cuts: Array<Cut> = []
  let gapStart = 0
  let removed: Array<{ readonly word: TimedWord; readonly reason: CutReason }> = []
  const closeGap = (gapEnd: number, first: boolean, last: boolean) => {
    if (gapEnd <= gapStart) return
    // Before the first word and after the last there is no speech to breathe beside.
    const from = first ? gapStart : gapStart + keep / 2
    const to = last ? gapEnd : gapEnd - keep / 2
    if (removed.length > 0) {
      const reason = removed.some((r) => r.reason === "filler") ? "filler" : "repeat"
      const start = Math.min(from, ...removed.map((r) => r.word.start))
      const end = Math.max(to, ...removed.map((r) => r.word.end))
      cuts.push({ start, end, reason })
    } else if (pace !== null && gapEnd - gapStart >= pace.longest) {
      cuts.push({ start: from, end: to, reason: "silence" })
    }
  }
  let first = true
  for (const [i, word] of words.entries()) {
    const reason = settings.fillers ? removal(words, i) : null
    if (reason !== null) {
      removed.push({ word, reason })
      continue
    }
    closeGap(word.start, first, false)
    first = false
    removed = []
    gapStart = Math.max(gapStart, word.end)
  }
  if (!first || removed.length > 0) closeGap(durationSeconds, first, true)
  return cuts.flatMap((cut) => snapped(cut) ?? [])
}

/** Cuts in order, inside the source and apart; later ones swallowed by earlier ones merge into them. */
export const normalizeCuts = (cuts: ReadonlyArray<Cut>, durationSeconds: number): ReadonlyArray<Cut> => {
  const sorted = [...cuts]
    .map((cut) => ({ ...cut, start: Math.max(0, cut.start), end: Math.min(durationSeconds, cut.end) }))
    .filter((cut) => cut.end > cut.start)
    .sort((a, b) => a.start - b.start)
  const out: Array<Cut> = []
  for (const cut of sorted) {
    const last = out.at(-1)
    if (last !== undefined && cut.start <= last.end) out[out.length - 1] = { ...last, end: Math.max(last.end, cut.end) }
    else out.push(cut)
  }
  return out
}

/** Seconds the cuts take out. */
export const cutSeconds = (cuts: ReadonlyArray<Cut>): number => cuts.reduce((sum, cut) => sum + (cut.end - cut.start), 0)

/** The spans of the source the output keeps, in order. */
export const keptSpans = (cuts: ReadonlyArray<Cut>, durationSeconds: number): ReadonlyArray<{ readonly start: number; readonly end: number }> => {
  const spans: Array<{ readonly start: number; readonly end: number }> = []
  let at = 0
  for (const cut of cuts) {
    if (cut.start > at) spans.push({ start: at, end: cut.start })
    at = Math.max(at, cut.end)
  }
  if (durationSeconds > at) spans.push({ start: at, end: durationSeconds })
  return spans
}

/** Where a moment of the source falls in the output; a moment inside a cut falls where the cut was. */
export const outputTime = (cuts: ReadonlyArray<Cut>, t: number): number => {
  let removed = 0
  for (const cut of cuts) {
    if (cut.start >= t) break
    removed += Math.min(t, cut.end) - cut.start
  }
  return t - removed
}

/**
 * The captions as the output says them: words a cut takes (mostly) out are gone, the rest moved to the
 * output's times, and line starts still point at the words that begin their lines.
 */
export const retimeCaptions = (
  words: ReadonlyArray<TimedWord>,
  lineStarts: ReadonlyArray<number> | null,
  cuts: ReadonlyArray<Cut>
): { readonly words: ReadonlyArray<TimedWord>; readonly lineStarts: ReadonlyArray<number> | null } => {
  if (cuts.length === 0) return { words, lineStarts }
  const kept: Array<TimedWord> = []
  // Each word's index among the kept words, or the next kept word's when it is cut.
  const moved = words.map((word) => {
    const at = kept.length
    const start = outputTime(cuts, word.start)
    const end = outputTime(cuts, word.end)
    // A word that lost more than half its time to cuts was one of those cut (a filler or a repeat).
    if (end - start >= (word.end - word.start) / 2) kept.push({ ...word, start, end })
    return at
  })
  const starts = lineStarts === null ? null : [...new Set(lineStarts.map((i) => moved[i] ?? kept.length))].filter((i) => i < kept.length)
  return { words: kept, lineStarts: starts }
}

/** What a person's cuts must leave of a video. */
const MIN_OUTPUT_SECONDS = 1

/** Cuts a person sent: each a span of the source, end after start; returned in order and apart. */
export const checkCuts = (cuts: ReadonlyArray<Cut>, durationSeconds: number): Either.Either<ReadonlyArray<Cut>, EditProblem> => {
  for (const [i, cut] of cuts.entries()) {
    if (!Number.isFinite(cut.start) || cut.start < 0) return Either.left({ field: `cuts.${i}.start`, message: "start must be a number of seconds, 0 or more." })
    if (!Number.isFinite(cut.end) || cut.end <= cut.start) return Either.left({ field: `cuts.${i}.end`, message: "end must come after start." })
    if (cut.start >= durationSeconds) {
      return Either.left({ field: `cuts.${i}.start`, message: `start is past the end of the video (${durationSeconds.toFixed(2)} s).` })
    }
  }
  const normal = normalizeCuts(cuts, durationSeconds)
  if (durationSeconds - cutSeconds(normal) < MIN_OUTPUT_SECONDS) {
    return Either.left({ field: "cuts", message: `The cuts leave less than ${MIN_OUTPUT_SECONDS} s of the video: restore some of it.` })
  }
  return Either.right(normal)
}
