// Word times for captions from what a speech engine reports. Engines time their own tokens ("2024",
// "Dr"), skip some ("--"), or merge repeats; captions need every written word of the script, in
// order, with its punctuation. Words the engine did not time get times by interpolation.
import type { TimedWord } from "./captions.ts"

/** A written token as the engine timed it, in seconds from the start of the audio. */
export interface SpokenToken {
  readonly text: string
  readonly start: number
  readonly end: number
}

/** The script's words as captions show them: split on whitespace, punctuation kept. */
export const scriptWords = (text: string): ReadonlyArray<string> => text.split(/\s+/).filter((w) => w.length > 0)

const letters = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "")

/**
 * Pairs each script word with the engine tokens that spell it (one, or several when the engine split
 * it), walking both in order; an unmatched token is skipped, an unmatched word is left untimed.
 */
const matchTokens = (words: ReadonlyArray<string>, tokens: ReadonlyArray<SpokenToken>) => {
  const timed: Array<{ start: number; end: number } | undefined> = []
  let next = 0
  for (const word of words) {
    const target = letters(word)
    let found: { start: number; end: number } | undefined
    for (let t = next; target.length > 0 && t < tokens.length && found === undefined; t++) {
      let spelled = ""
      for (let u = t; u < tokens.length && target.startsWith(spelled + letters(tokens[u]!.text)); u++) {
        spelled += letters(tokens[u]!.text)
        if (spelled === target) {
          found = { start: tokens[t]!.start, end: tokens[u]!.end }
          next = u + 1
          break
        }
      }
      // Look ahead a little only: a far match would more likely be a later repeat of the word.
      if (t - next >= 2) break
    }
    timed.push(found)
  }
  return timed
}

/**
 * Fills the untimed words between timed neighbours in proportion to their length (a long word takes
 * longer to say), then makes the times non-decreasing and inside the audio.
 */
export const fillWordTimes = (
  words: ReadonlyArray<string>,
  timed: ReadonlyArray<{ readonly start: number; readonly end: number } | undefined>,
  durationSeconds: number
): ReadonlyArray<TimedWord> => {
  const result: Array<TimedWord> = []
  let i = 0
  while (i < words.length) {
    const known = timed[i]
    if (known !== undefined) {
      result.push({ text: words[i]!, start: known.start, end: known.end })
      i++
      continue
    }
    let j = i
    while (j < words.length && timed[j] === undefined) j++
    const from = result.at(-1)?.end ?? 0
    const to = timed[j]?.start ?? durationSeconds
    const weights = words.slice(i, j).map((w) => Math.max(1, letters(w).length))
    const total = weights.reduce((a, b) => a + b, 0)
    let at = from
    for (let k = i; k < j; k++) {
      const span = ((Math.max(to, from) - from) * weights[k - i]!) / total
      result.push({ text: words[k]!, start: at, end: at + span })
      at += span
    }
    i = j
  }
  let floor = 0
  return result.map((w) => {
    const start = Math.min(Math.max(w.start, floor), durationSeconds)
    const end = Math.min(Math.max(w.end, start), durationSeconds)
    floor = start
    return { text: w.text, start: round(start), end: round(end) }
  })
}

const round = (seconds: number): number => Math.round(seconds * 1000) / 1000

/** Every word of the script with a time, from the tokens the engine timed. */
export const alignSpokenWords = (
  text: string,
  tokens: ReadonlyArray<SpokenToken>,
  durationSeconds: number
): ReadonlyArray<TimedWord> => {
  const words = scriptWords(text)
  return fillWordTimes(words, matchTokens(words, tokens), durationSeconds)
}
