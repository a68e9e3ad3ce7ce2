import { Context } from "effect"

/** How common a word is in spoken English: what makes a word rare enough to emphasise. */
export interface WordFrequencyShape {
  /** The word's rank (0 the most common) as `bareWord` spells it; null when the list lacks it. */
  readonly rank: (word: string) => number | null
}
export class WordFrequency extends Context.Tag("WordFrequency")<WordFrequency, WordFrequencyShape>() {}
