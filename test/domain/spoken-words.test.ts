import { describe, expect, it } from "vitest"
import { alignSpokenWords, fillWordTimes, scriptWords } from "../../domain/spoken-words.ts"

describe("spoken words", () => {
  it("keeps the script's words with their punctuation and takes the engine's times", () => {
    const words = alignSpokenWords("Hello, world!", [
      { text: "Hello", start: 0.1, end: 0.4 },
      { text: "world", start: 0.4, end: 0.9 }
    ], 1.2)
    expect(words).toEqual([
      { text: "Hello,", start: 0.1, end: 0.4 },
      { text: "world!", start: 0.4, end: 0.9 }
    ])
  })

  it("gives a word the engine skipped a time between its neighbours", () => {
    const words = alignSpokenWords("we paid -- it is", [
      { text: "we", start: 0, end: 0.2 },
      { text: "paid", start: 0.2, end: 0.5 },
      { text: "it", start: 0.7, end: 0.8 },
      { text: "is", start: 0.8, end: 1 }
    ], 1)
    expect(words.map((w) => w.text)).toEqual(["we", "paid", "--", "it", "is"])
    expect(words[2]).toEqual({ text: "--", start: 0.5, end: 0.7 })
  })

  it("joins tokens the engine split out of one written word", () => {
    const words = alignSpokenWords("state-of-the-art idea", [
      { text: "state", start: 0, end: 0.3 },
      { text: "of", start: 0.3, end: 0.4 },
      { text: "the", start: 0.4, end: 0.5 },
      { text: "art", start: 0.5, end: 0.8 },
      { text: "idea", start: 0.8, end: 1.2 }
    ], 1.5)
    expect(words).toEqual([
      { text: "state-of-the-art", start: 0, end: 0.8 },
      { text: "idea", start: 0.8, end: 1.2 }
    ])
  })

  it("keeps repeated words apart", () => {
    const words = alignSpokenWords("the the end", [
      { text: "the", start: 0.1, end: 0.2 },
      { text: "the", start: 0.2, end: 0.35 },
      { text: "end", start: 0.35, end: 0.6 }
    ], 0.8)
    expect(words.map((w) => w.start)).toEqual([0.1, 0.2, 0.35])
  })

  it("spreads a script over the audio by word length when the engine timed nothing", () => {
    const words = alignSpokenWords("a bb cccc", [], 7)
    expect(words).toEqual([
      { text: "a", start: 0, end: 1 },
      { text: "bb", start: 1, end: 3 },
      { text: "cccc", start: 3, end: 7 }
    ])
  })

  it("never goes backwards or past the end of the audio", () => {
    const words = fillWordTimes(["one", "two", "three"], [{ start: 0.5, end: 0.9 }, { start: 0.3, end: 0.4 }, { start: 2, end: 3 }], 2.5)
    for (const [i, w] of words.entries()) {
      expect(w.end).toBeGreaterThanOrEqual(w.start)
      expect(w.end).toBeLessThanOrEqual(2.5)
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1]!.start)
    }
  })

  it("splits a script on whitespace only", () => {
    expect(scriptWords("  Hi,\nthere —  you! ")).toEqual(["Hi,", "there", "—", "you!"])
  })
})
