// Vocabulary for a recogniser that cannot learn words (pocketsphinx's fixed language model): a run of
// heard words that sounds like a vocabulary term ("sore blot" for "Zorblatt") becomes the term. Sounds
// are compared as phone strings, by edit distance over the term's length.
import type { TimedWord } from "./captions.ts"

/** A term and how it is said: one phone list per pronunciation. */
export interface SpokenTerm {
  readonly text: string
  readonly phones: ReadonlyArray<ReadonlyArray<string>>
}

/** Heard runs of up to this many words may be one term. */
const MAX_RUN = 3
/** A run this close to a term (phone edits per phone of the term) is taken for it. */
export const MAX_PHONE_DISTANCE = 1 / 3
/** Terms of fewer phones match too much by chance ("Ann", "Bo"). */
const MIN_TERM_PHONES = 4

const editDistance = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)))
    }
    previous = row
  }
  return previous[b.length]!
}

/**
 * The heard words with every run that sounds like a term replaced by it (the run's start and end kept).
 * `phonesOf` says how a heard word is said; a word it cannot say ends no run. The closest term wins, and
 * a run already written as the term is left alone.
 */
export const replaceSoundAlikes = (
  heard: ReadonlyArray<TimedWord>,
  terms: ReadonlyArray<SpokenTerm>,
  phonesOf: (word: string) => ReadonlyArray<string> | undefined
): ReadonlyArray<TimedWord> => {
  const usable = terms.filter((term) => term.phones.some((p) => p.length >= MIN_TERM_PHONES))
  if (usable.length === 0) return heard
  const out: Array<TimedWord> = []
  let i = 0
  while (i < heard.length) {
    let best: { readonly term: SpokenTerm; readonly length: number; readonly distance: number } | undefined
    let phones: Array<string> = []
    for (let length = 1; length <= MAX_RUN && i + length <= heard.length; length++) {
      const said = phonesOf(heard[i + length - 1]!.text)
      if (said === undefined) break
      phones = [...phones, ...said]
      for (const term of usable) {
        for (const termPhones of term.phones) {
          if (termPhones.length < MIN_TERM_PHONES) continue
          const distance = editDistance(phones, termPhones) / termPhones.length
          if (distance <= MAX_PHONE_DISTANCE && (best === undefined || distance < best.distance)) best = { term, length, distance }
        }
      }
    }
    const run = best === undefined ? [] : heard.slice(i, i + best.length)
    if (best === undefined || run.map((w) => w.text).join(" ").toLowerCase() === best.term.text.toLowerCase()) {
      out.push(heard[i]!)
      i++
      continue
    }
    out.push({ text: best.term.text, start: run[0]!.start, end: run.at(-1)!.end })
    i += best.length
  }
  return out
}
