// Which caption lines get an emoji (`emoji: auto`): at most one a line, for the word of the line that
// best names a thing an emoji shows ("fire", "pizza", "money"), never for the words people say without
// meaning a thing ("like", "well", "right"). A word's `emoji` is what the render draws; auto sets them
// once (at generation, or when a person turns it on), and a person may add, change or remove any.
import { Schema } from "effect"
import { bareWord } from "./caption-emphasis.ts"
import { type CaptionPage, EMOJI_MODES, type TimedWord } from "./captions.ts"

export const EmojiMode = Schema.Literal(...EMOJI_MODES).annotations({
  description:
    "`auto` puts at most one fitting emoji beside each caption line, drawn in colour as its word is spoken, chosen from the line's words; `off` (the default) puts none. A word's `emoji` can be added, changed or removed afterwards."
})
export type EmojiMode = typeof EmojiMode.Type

/** An emoji a word names, and how closely: 0 is the emoji's own name, higher is looser. */
export interface EmojiMatch {
  readonly emoji: string
  readonly closeness: number
}

/** Where a word's emoji comes from: a keyword list, asked with the word as `bareWord` spells it. */
export interface EmojiClues {
  readonly emojiFor: (word: string) => EmojiMatch | null
}

/** Matches looser than this are not used: a keyword far down an emoji's list says little. */
const MAX_CLOSENESS = 140
const MIN_LETTERS = 3

/**
 * Words that name something in a keyword list yet are said for other reasons: fillers and hedges
 * ("like", "well", "right", "so"), common verbs and function words, and words too general to picture.
 */
const STOP_WORDS = new Set([
  "like", "well", "right", "so", "just", "really", "okay", "yeah", "yes", "sure", "actually", "basically", "literally", "maybe",
  "kind", "sort", "mean", "know", "thing", "things", "stuff", "way", "get", "got", "going", "gonna", "make", "made", "see", "look",
  "say", "said", "think", "want", "need", "back", "also", "even", "still", "much", "many", "more", "most", "very", "some", "any",
  "all", "every", "that", "this", "these", "those", "what", "which", "who", "how", "why", "when", "where", "there", "here", "then",
  "than", "now", "the", "and", "but", "you", "your", "our", "they", "them", "she", "her", "his", "him", "its", "are", "was", "were",
  "has", "have", "had", "can", "could", "would", "should", "will", "did", "does", "done", "come", "came", "take", "took", "put",
  "let", "give", "gave", "new", "top", "up", "down", "on", "off", "end", "soon", "free", "open", "face", "person", "people", "man",
  "woman", "hand", "hands", "over", "out", "one", "two", "three", "first", "last", "next", "good", "great", "little", "big", "lot",
  "lots", "part", "point", "case", "fact", "place", "side", "old", "same", "other", "another", "own", "each", "both", "only", "ever",
  "never", "always", "again", "around", "about", "into", "from", "with", "without", "for", "not", "too", "yet", "ago", "day"
])

/** The emoji a word names, trying it as said and then without a plural's s. */
const matchOf = (text: string, clues: EmojiClues): EmojiMatch | null => {
  const bare = bareWord(text)
  if (bare.length < MIN_LETTERS || STOP_WORDS.has(bare) || !/^\p{L}+$/u.test(bare)) return null
  const singular = bare.length > 3 && bare.endsWith("s") && !bare.endsWith("ss") ? bare.slice(0, -1) : null
  const found = clues.emojiFor(bare) ?? (singular === null || STOP_WORDS.has(singular) ? null : clues.emojiFor(singular))
  return found !== null && found.closeness <= MAX_CLOSENESS ? found : null
}

/**
 * The words with their emoji set afresh: in each line of `pages` (the layout they are shown in), the
 * word naming an emoji most closely (the earlier one on a tie) gets it; other words get none.
 */
export const chooseEmoji = (words: ReadonlyArray<TimedWord>, pages: ReadonlyArray<CaptionPage>, clues: EmojiClues): ReadonlyArray<TimedWord> => {
  const chosen = new Map<number, string>()
  let index = 0
  for (const line of pages.flatMap((page) => page.lines)) {
    let best: { readonly index: number; readonly match: EmojiMatch } | null = null
    for (const word of line.words) {
      const match = matchOf(word.text, clues)
      if (match !== null && (best === null || match.closeness < best.match.closeness)) best = { index, match }
      index++
    }
    if (best !== null) chosen.set(best.index, best.match.emoji)
  }
  return words.map(({ emoji: _, ...word }, i) => {
    const emoji = chosen.get(i)
    return emoji === undefined ? word : { ...word, emoji }
  })
}

/** The words without any emoji (`emoji: off`). */
export const withoutEmoji = (words: ReadonlyArray<TimedWord>): ReadonlyArray<TimedWord> => words.map(({ emoji: _, ...word }) => word)
