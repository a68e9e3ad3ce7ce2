// Word times for captions from what a speech engine reports. Captions need every written word of the
// script, in order, with its punctuation; engines time their own tokens ("2024", "Dr"), skip some
// ("--"), merge repeats, or time nothing at all. Words without a time get one by interpolation.
import type { TimedWord } from "./captions.ts"

/** A word of a text and where it lies in it (UTF-16 offsets, end exclusive). */
export interface TextWord {
  readonly text: string
  readonly start: number
  readonly end: number
}

/** The text's words as captions show them: split on whitespace, punctuation kept on its word. */
export const textWords = (text: string): ReadonlyArray<TextWord> =>
  Array.from(text.matchAll(/\S+/g), (match) => ({ text: match[0], start: match.index, end: match.index + match[0].length }))

/** The word at `offset`, or the first word after it when `offset` falls between words. */
export const wordIndexAt = (words: ReadonlyArray<TextWord>, offset: number): number | undefined => {
  const index = words.findIndex((word) => offset < word.end)
  return index < 0 ? undefined : index
}

/** What an engine told of one word, in seconds; either may be missing. */
export interface WordMark {
  readonly start?: number | undefined
  /** Where the word's sound stops when a pause follows it (the end of a sentence or clause). */
  readonly speechEnd?: number | undefined
}

/** Seconds to the millisecond, as every word time is kept. */
export const roundMs = (seconds: number): number => Math.round(seconds * 1000) / 1000

/**
 * Times every word. A word keeps the start its engine gave when that start is in order and inside
 * the audio; a run of words without one shares the time from the previous start to the next in
 * proportion to the words' lengths. A word ends where the next starts, or where its speech ends if
 * the engine marked a pause after it; the last word ends at its speech end, else at the end of the
 * audio. Times are non-decreasing and within [0, durationSeconds].
 */
export const fillWordTimes = (
  words: ReadonlyArray<string>,
  marks: ReadonlyArray<WordMark>,
  durationSeconds: number
): ReadonlyArray<TimedWord> => {
  const duration = Math.max(0, durationSeconds)
  const known: Array<number | undefined> = []
  let latest = 0
  words.forEach((_, i) => {
    const start = marks[i]?.start
    const usable = start !== undefined && Number.isFinite(start) && start >= latest && start <= duration
    known.push(usable ? start : undefined)
    if (usable) latest = start
  })
  const lastSpeechEnd = marks[words.length - 1]?.speechEnd
  const endOfSpeech = lastSpeechEnd !== undefined && lastSpeechEnd >= latest && lastSpeechEnd <= duration
    ? lastSpeechEnd
    : duration

  // Cumulative lengths, so a run's share of time is a difference of two sums.
  const before = [0]
  words.forEach((word, i) => before.push(before[i]! + Math.max(1, word.length)))

  const starts = known.slice()
  let i = 0
  while (i < words.length) {
    if (starts[i] !== undefined) {
      i++
      continue
    }
    let j = i
    while (j < words.length && known[j] === undefined) j++
    // The run i..j-1 lies between the start of word i-1 (or 0) and the start of word j (or the end of speech).
    const from = i === 0 ? 0 : i - 1
    const fromTime = i === 0 ? 0 : known[i - 1]!
    const toTime = j === words.length ? endOfSpeech : known[j]!
    const span = before[j]! - before[from]!
    for (let k = i; k < j; k++) starts[k] = fromTime + ((toTime - fromTime) * (before[k]! - before[from]!)) / span
    i = j
  }

  return words.map((text, k) => {
    const start = starts[k]!
    const next = k + 1 < words.length ? starts[k + 1]! : endOfSpeech
    const speechEnd = marks[k]?.speechEnd
    const end = speechEnd !== undefined && speechEnd >= start && speechEnd < next ? speechEnd : next
    return { text, start: Math.min(roundMs(start), duration), end: Math.min(roundMs(Math.max(start, end)), duration) }
  })
}

/** A voice reads letters and digits; emoji, symbols and punctuation alone give it nothing to say. */
export const hasSpeakableText = (text: string): boolean => /[\p{L}\p{N}]/u.test(text)

/**
 * No language writes a word this long (German compounds stay under 60 letters); a voice given one
 * spells it out for minutes, and festival runs out of memory on it.
 */
export const MAX_WORD_CHARACTERS = 64

export const hasOnlySpeakableWords = (text: string): boolean => textWords(text).every((w) => w.text.length <= MAX_WORD_CHARACTERS)

/**
 * Audio shorter than this is a voice that said nothing of its text (one in another language):
 * festival's empty utterance lasts 0.018 s, the shortest word about 0.3 s.
 */
export const MIN_SPOKEN_SECONDS = 0.1

export const scriptWords = (text: string): ReadonlyArray<string> => textWords(text).map((w) => w.text)

/** A written token as an engine timed it, in seconds from the start of the audio. */
export interface SpokenToken {
  readonly text: string
  readonly start: number
  readonly end: number
}

const letters = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

/**
 * For engines that report tokens without their place in the text: pairs each script word with the
 * tokens that spell it (one, or several when the engine split it), walking both in order; an
 * unmatched token is skipped, an unmatched word gets no mark.
 */
const marksFromTokens = (words: ReadonlyArray<string>, tokens: ReadonlyArray<SpokenToken>): ReadonlyArray<WordMark> => {
  const marks: Array<WordMark> = []
  let next = 0
  for (const word of words) {
    const target = letters(word)
    let found: WordMark | undefined
    for (let t = next; target.length > 0 && t < tokens.length && found === undefined; t++) {
      let spelled = ""
      for (let u = t; u < tokens.length && target.startsWith(spelled + letters(tokens[u]!.text)); u++) {
        spelled += letters(tokens[u]!.text)
        if (spelled === target) {
          found = { start: tokens[t]!.start, speechEnd: tokens[u]!.end }
          next = u + 1
          break
        }
      }
      // Look ahead a little only: a far match would more likely be a later repeat of the word.
      if (t - next >= 2) break
    }
    marks.push(found ?? {})
  }
  return marks
}

/** Every word of the script with a time, from the tokens the engine timed. */
export const alignSpokenWords = (
  text: string,
  tokens: ReadonlyArray<SpokenToken>,
  durationSeconds: number
): ReadonlyArray<TimedWord> => {
  const words = scriptWords(text)
  return fillWordTimes(words, marksFromTokens(words, tokens), durationSeconds)
}
