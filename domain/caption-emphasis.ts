// Which caption words stand out (`emphasis: auto`): numbers, names, words rare in spoken English, and
// words said louder than their line, at most two a line. A word's `emphasis` flag is what the render
// draws; auto sets the flags once (at generation, or when a person turns it on), a person may toggle any.
import { Schema } from "effect"
import { type CaptionPage, endsSentence, type TimedWord } from "./captions.ts"

export const EmphasisMode = Schema.Literal("off", "auto").annotations({
  description:
    "`auto` draws important words in the template's emphasis colour and size (numbers, names, rare words, and words the speaker stresses), at most two a caption line; `off` (the default) draws none. A word's `emphasis` flag can be toggled afterwards."
})
export type EmphasisMode = typeof EmphasisMode.Type

/** What tells an important word besides its text. */
export interface EmphasisClues {
  /** The word's rank in spoken English (0 the most common), null when the list lacks it. */
  readonly rank: (word: string) => number | null
  /** Each word's loudness in dB (any reference), where the audio was measured. */
  readonly loudness?: ReadonlyArray<number> | undefined
}

/** Below this score a word is never emphasised. */
const MIN_SCORE = 2
/** A second word in a line must score this much, and the line hold this many words. */
const SECOND = { score: 3, words: 6 } as const
/** Louder than its line's median by this much: stressed. */
const STRESS_DB = 4

const NUMBER_WORDS = new Set([
  "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
  "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
  "ninety", "hundred", "thousand", "million", "billion", "trillion", "percent", "half", "double", "triple", "first", "second", "third"
])

/** The word as the frequency list spells it: lowercase, without the punctuation around it. */
export const bareWord = (text: string): string => text.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/**
 * How important each word of a line is. Numbers score highest; a capitalised word inside a sentence
 * (a name, where the recogniser writes case) next; then rarity; a stressed word gains. Short common
 * words score nothing.
 */
const scores = (line: ReadonlyArray<{ readonly word: TimedWord; readonly index: number; readonly sentenceStart: boolean }>, clues: EmphasisClues) => {
  const loud = clues.loudness
  const typical = loud === undefined ? 0 : median(line.map(({ index }) => loud[index] ?? -Infinity).filter(Number.isFinite))
  return line.map(({ word, index, sentenceStart }) => {
    const bare = bareWord(word.text)
    if (bare === "") return 0
    if (/\d/.test(bare) || NUMBER_WORDS.has(bare)) return 4
    const rank = clues.rank(bare)
    const named = !sentenceStart && /^\p{Lu}/u.test(word.text.replace(/^[^\p{L}]+/u, "")) && bare !== "i" && bare.length > 1
    const rarity = rank === null ? (bare.length >= 5 ? 2.5 : 0) : rank >= 12_000 ? 2.5 : rank >= 4_000 ? 2 : rank >= 1_500 ? 1 : 0
    const stressed = loud !== undefined && (loud[index] ?? -Infinity) >= typical + STRESS_DB ? 1.5 : 0
    return (named ? 3 : rarity) + (bare.length >= 4 ? stressed : 0)
  })
}

/**
 * The words with their `emphasis` flags set afresh: in each line of `pages` (the layout they are shown
 * in), the best word scoring at least 2, and a second one in a long line if it scores 3 or more.
 */
export const chooseEmphasis = (words: ReadonlyArray<TimedWord>, pages: ReadonlyArray<CaptionPage>, clues: EmphasisClues): ReadonlyArray<TimedWord> => {
  const chosen = new Set<number>()
  let index = 0
  let sentenceStart = true
  for (const line of pages.flatMap((page) => page.lines)) {
    const entries = line.words.map((word) => {
      const entry = { word, index: index++, sentenceStart }
      sentenceStart = endsSentence(word.text)
      return entry
    })
    const ranked = scores(entries, clues)
      .map((score, k) => ({ score, index: entries[k]!.index }))
      .filter(({ score }) => score >= MIN_SCORE)
      .sort((a, b) => b.score - a.score || a.index - b.index)
    const [best, next] = ranked
    if (best !== undefined) chosen.add(best.index)
    if (next !== undefined && next.score >= SECOND.score && entries.length >= SECOND.words) chosen.add(next.index)
  }
  return words.map(({ emphasis: _, ...word }, i) => (chosen.has(i) ? { ...word, emphasis: true } : word))
}

/** The words without any emphasis (`emphasis: off`). */
export const withoutEmphasis = (words: ReadonlyArray<TimedWord>): ReadonlyArray<TimedWord> =>
  words.map(({ emphasis: _, ...word }) => word)
