import { describe, expect, it } from "vitest"
import { bareWord, chooseEmphasis, withoutEmphasis } from "../../domain/caption-emphasis.ts"
import { type CaptionPage, type TimedWord } from "../../domain/captions.ts"

/** Word ranks as a frequency list would give them: the listed ones common, `uncommon` far down, the rest unknown. */
const COMMON = ["the", "a", "we", "is", "it", "was", "and", "to", "so", "like", "well", "you", "i", "this", "that", "of", "in", "on", "went", "today", "very", "good", "people", "said", "about", "our", "town", "boats"]
const rank = (word: string): number | null => (COMMON.includes(word) ? COMMON.indexOf(word) : word === "harbour" ? 20_000 : word === "market" ? 2_000 : null)

const words = (text: string): ReadonlyArray<TimedWord> => text.split(" ").map((t, i) => ({ text: t, start: i * 0.4, end: i * 0.4 + 0.3 }))

/** One line a page, `perLine` words each. */
const lines = (list: ReadonlyArray<TimedWord>, perLine: number): ReadonlyArray<CaptionPage> => {
  const pages: Array<CaptionPage> = []
  for (let i = 0; i < list.length; i += perLine) {
    const chunk = list.slice(i, i + perLine)
    pages.push({ start: chunk[0]!.start, end: chunk.at(-1)!.end, lines: [{ start: chunk[0]!.start, end: chunk.at(-1)!.end, text: "", words: chunk }] })
  }
  return pages
}

const emphasised = (list: ReadonlyArray<TimedWord>) => list.filter((w) => w.emphasis === true).map((w) => w.text)

describe("chooseEmphasis", () => {
  it("picks numbers first, then names inside a sentence, then rare words; never common or short words", () => {
    const list = words("We went to the harbour and it was 42 boats today")
    expect(emphasised(chooseEmphasis(list, lines(list, 11), { rank }))).toEqual(["42"])
    const rare = words("We went to the harbour today")
    expect(emphasised(chooseEmphasis(rare, lines(rare, 6), { rank }))).toEqual(["harbour"])
    const named = words("So we said hello to Margaret in our town")
    expect(emphasised(chooseEmphasis(named, lines(named, 9), { rank }))).toEqual(["Margaret"])
    // "So" starts a sentence: capitals there are no name
    const common = words("So it was like well you know good")
    expect(emphasised(chooseEmphasis(common, lines(common, 8), { rank }))).toEqual([])
  })

  it("takes the best word of each line, and a second only in a long line and only a strong one", () => {
    const list = words("harbour 42 market harbour")
    expect(emphasised(chooseEmphasis(list, lines(list, 2), { rank }))).toEqual(["42", "harbour"])
    const long = words("the 42 boats of Margaret came in today")
    expect(emphasised(chooseEmphasis(long, lines(long, 8), { rank }))).toEqual(["42", "Margaret"])
    const short = words("the 42 boats of Margaret")
    expect(emphasised(chooseEmphasis(short, lines(short, 5), { rank }))).toEqual(["42"])
    const weak = words("the 42 boats of the harbour came in today")
    expect(emphasised(chooseEmphasis(weak, lines(weak, 9), { rank }))).toEqual(["42"])
  })

  it("lifts a word said louder than its line, and drops old flags when choosing again", () => {
    const list = words("people said the market was very good")
    expect(emphasised(chooseEmphasis(list, lines(list, 7), { rank }))).toEqual([])
    const loud = [-30, -30, -30, -30, -30, -30, -30].map((db, i) => (i === 3 ? -22 : db))
    expect(emphasised(chooseEmphasis(list, lines(list, 7), { rank, loudness: loud }))).toEqual(["market"])
    const flagged = list.map((w) => ({ ...w, emphasis: true }))
    expect(emphasised(chooseEmphasis(flagged, lines(flagged, 7), { rank }))).toEqual([])
    expect(withoutEmphasis(flagged).some((w) => "emphasis" in w)).toBe(false)
  })

  it("reads words without the punctuation around them", () => {
    expect(bareWord("“Harbour,”")).toBe("harbour")
    expect(bareWord("42%")).toBe("42")
  })
})
