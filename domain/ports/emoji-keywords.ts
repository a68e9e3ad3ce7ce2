import { Context } from "effect"
import type { EmojiMatch } from "../caption-emoji.ts"

/** Which emoji a word names: what `emoji: auto` puts beside a caption line. */
export interface EmojiKeywordsShape {
  /** The emoji `word` (as `bareWord` spells it) names most closely, null when it names none. */
  readonly emojiFor: (word: string) => EmojiMatch | null
}
export class EmojiKeywords extends Context.Tag("EmojiKeywords")<EmojiKeywords, EmojiKeywordsShape>() {}
