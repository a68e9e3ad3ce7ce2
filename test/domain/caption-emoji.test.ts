// emoji: auto on known lines: one emoji a line at most, for the word naming a thing most closely, never
// for a filler or a word too general to picture; a person's emoji are replaced or cleared as asked.
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { EmojilibKeywordsLive } from "../../adapters/speech/emojilib-keywords.ts"
import { chooseEmoji, type EmojiClues, withoutEmoji } from "../../domain/caption-emoji.ts"
import { isOneEmoji, layoutCaptions, lineEmoji, type TimedWord } from "../../domain/captions.ts"
import { EmojiKeywords } from "../../domain/ports/emoji-keywords.ts"

const timed = (text: string): ReadonlyArray<TimedWord> => text.split(" ").map((w, i) => ({ text: w, start: i * 0.4, end: i * 0.4 + 0.3 }))
const RULES = { maxCharsPerLine: 24, linesPerPage: 2, pauseSeconds: 0.7 }

const emojilib: EmojiClues = Effect.runSync(Effect.provide(EmojiKeywords, EmojilibKeywordsLive))

const chosen = (text: string, clues: EmojiClues = emojilib) => {
  const words = timed(text)
  const marked = chooseEmoji(words, layoutCaptions(words, RULES), clues)
  return { marked, lines: layoutCaptions(marked, RULES).flatMap((page) => page.lines).map((line) => [line.text, lineEmoji(line)]) }
}

describe("chooseEmoji", () => {
  it("puts one emoji on a line, for the word naming a thing", () => {
    const { lines, marked } = chosen("The pizza was on fire")
    expect(lines).toEqual([["The pizza was on fire", "🍕"]])
    expect(marked.filter((w) => w.emoji !== undefined)).toHaveLength(1)
  })

  it("chooses per line, in the layout the captions are shown in", () => {
    const { lines } = chosen("We launched a rocket, then we ordered pizza")
    expect(lines).toEqual([["We launched a rocket,", "🚀"], ["then we ordered pizza", "🍕"]])
  })

  it("never gives one to fillers, hedges or words too general to picture", () => {
    const { lines } = chosen("Well I like it, you know, right")
    expect(lines.every(([, emoji]) => emoji === null)).toBe(true)
    // Each of these names an emoji in the keyword list: the stop list is what keeps them out.
    for (const word of ["like", "well", "right", "face", "people"]) expect(emojilib.emojiFor(word)).not.toBeNull()
  })

  it("offers only what a word's emoji may be, and no sign read in Japanese", () => {
    const words = ["months", "canada", "free", "fire", "money", "night", "water", "japan", "ok", "vs"]
    for (const word of words) {
      const match = emojilib.emojiFor(word)
      if (match !== null) expect(isOneEmoji(match.emoji)).toBe(true)
    }
    expect(emojilib.emojiFor("months")?.emoji).not.toBe("🈷️")
    expect(emojilib.emojiFor("canada")?.emoji).toBe("🇨🇦")
  })

  it("finds a plural's emoji, and only emoji the list names closely", () => {
    expect(chosen("so many dogs").lines).toEqual([["so many dogs", "🐕"]])
    const loose: EmojiClues = { emojiFor: (word) => (word === "table" ? { emoji: "🪑", closeness: 190 } : null) }
    expect(chosen("the table", loose).lines).toEqual([["the table", null]])
  })

  it("replaces what a person set on auto, and clears everything on off", () => {
    const words = timed("my dog").map((w, i) => (i === 0 ? { ...w, emoji: "🎉" } : w))
    const auto = chooseEmoji(words, layoutCaptions(words, RULES), emojilib)
    expect(auto.map((w) => w.emoji)).toEqual([undefined, "🐕"])
    expect(withoutEmoji(auto).some((w) => "emoji" in w)).toBe(false)
  })
})

describe("isOneEmoji", () => {
  it("takes one emoji, with its modifiers and joined sequences, and nothing else", () => {
    for (const ok of ["🔥", "🏙️", "👍🏽", "👩‍💻", "❤️", "🇨🇦", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿"]) expect(isOneEmoji(ok)).toBe(true)
    for (const bad of ["", "a", "🔥🔥", "🔥 ", "fire", ":fire:", "1", "🇨", "🇨🇦🇨🇦"]) expect(isOneEmoji(bad)).toBe(false)
  })
})
