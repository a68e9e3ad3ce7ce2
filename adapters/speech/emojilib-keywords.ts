// EmojiKeywords from emojilib (npm, MIT): some 1,900 emoji, each with its name and the words people
// search it by. Read on first use and turned round, word -> the emoji naming it most closely.
import { Layer } from "effect"
import { createRequire } from "node:module"
import type { EmojiMatch } from "../../domain/caption-emoji.ts"
import { isOneEmoji } from "../../domain/captions.ts"
import { EmojiKeywords } from "../../domain/ports/emoji-keywords.ts"

/** How close each kind of match is (lower is closer): the emoji's whole name, the last word of its name, another word of it, a keyword. */
const CLOSENESS = { name: 0, head: 10, part: 20, keyword: 100 } as const

let index: ReadonlyMap<string, EmojiMatch> | undefined

const indexOf = (): ReadonlyMap<string, EmojiMatch> => {
  if (index !== undefined) return index
  const lib = createRequire(import.meta.url)("emojilib") as Readonly<Record<string, ReadonlyArray<string>>>
  const byWord = new Map<string, EmojiMatch>()
  const offer = (word: string, emoji: string, closeness: number) => {
    if (!/^[a-z]+$/.test(word)) return
    const held = byWord.get(word)
    if (held === undefined || closeness < held.closeness) byWord.set(word, { emoji, closeness })
  }
  for (const [emoji, keywords] of Object.entries(lib)) {
    // Sequences of several people or objects joined by ZWJ name a combination, not the word; the squared
    // CJK signs are read in Japanese; what a word's emoji may not be is never offered.
    if (emoji.includes("\u200D") || !isOneEmoji(emoji) || /^[\u{1F200}-\u{1F2FF}\u3297\u3299\u{1F170}-\u{1F189}]/u.test(emoji)) continue
    const [name = "", ...rest] = keywords
    const parts = name.split("_")
    if (parts.length === 1) offer(name, emoji, CLOSENESS.name)
    else parts.forEach((part, k) => offer(part, emoji, (k === parts.length - 1 ? CLOSENESS.head : CLOSENESS.part) + parts.length))
    // A keyword's place in the list tells how central it is; a longer name is a narrower emoji.
    rest.forEach((keyword, k) => offer(keyword, emoji, CLOSENESS.keyword + (k + 1) * 10 + parts.length))
  }
  index = byWord
  return byWord
}

export const EmojilibKeywordsLive = Layer.succeed(EmojiKeywords, EmojiKeywords.of({ emojiFor: (word) => indexOf().get(word) ?? null }))
