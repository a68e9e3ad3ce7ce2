// The script's words, engine tokens matched to them, and the fill-in of word times engines did not give.
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { alignSpokenWords, fillWordTimes, scriptWords, textWords, wordIndexAt } from "../../domain/spoken-words.ts"

describe("textWords", () => {
  it("splits on any whitespace and keeps punctuation on its word, with offsets into the text", () => {
    const text = "  Hello, world!\n\t“Quoted” e-mail…  "
    const words = textWords(text)
    expect(words.map((w) => w.text)).toEqual(["Hello,", "world!", "“Quoted”", "e-mail…"])
    expect(words.every((w) => text.slice(w.start, w.end) === w.text)).toBe(true)
  })

  it("finds no words in blank text", () => {
    expect(textWords(" \n\t ")).toEqual([])
  })
})

describe("wordIndexAt", () => {
  const words = textWords("ab  cd ef")
  it("gives the word an offset falls in, or the next word from between words", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((offset) => wordIndexAt(words, offset))).toEqual([0, 0, 1, 1, 1, 1, 2, 2, 2])
    expect(wordIndexAt(words, 9)).toBeUndefined()
  })
})

describe("fillWordTimes", () => {
  it("keeps the engine's starts and ends each word where the next starts, the last at the end of the audio", () => {
    const words = fillWordTimes(["one", "two", "three"], [{ start: 0.1 }, { start: 0.5 }, { start: 0.9 }], 1.5)
    expect(words).toEqual([
      { text: "one", start: 0.1, end: 0.5 },
      { text: "two", start: 0.5, end: 0.9 },
      { text: "three", start: 0.9, end: 1.5 }
    ])
  })

  it("ends a word before the pause after it, and the last word at its speech end", () => {
    const words = fillWordTimes(["Hi.", "Bye."], [{ start: 0, speechEnd: 0.4 }, { start: 0.8, speechEnd: 1.1 }], 1.3)
    expect(words).toEqual([{ text: "Hi.", start: 0, end: 0.4 }, { text: "Bye.", start: 0.8, end: 1.1 }])
  })

  it("shares the time between two known starts among the untimed words in proportion to their length", () => {
    // "a" and "bbb" share 1.0..2.0 with the timed word before them: lengths 2 : 1 : 3 of 6.
    const words = fillWordTimes(["xx", "a", "bbb", "end"], [{ start: 1 }, {}, {}, { start: 2 }], 3)
    expect(words.map((w) => w.start)).toEqual([1, 1.333, 1.5, 2])
    expect(words.map((w) => w.end)).toEqual([1.333, 1.5, 2, 3])
  })

  it("starts untimed leading words at 0 and spreads untimed trailing words up to the end of speech", () => {
    const words = fillWordTimes(["aa", "bb", "cc", "dd"], [{}, { start: 1 }, {}, { speechEnd: 2.5 }], 3)
    expect(words.map((w) => [w.start, w.end])).toEqual([[0, 1], [1, 1.5], [1.5, 2], [2, 2.5]])
  })

  it("spreads words over the whole audio when the engine timed none", () => {
    const words = fillWordTimes(["a", "b", "c", "d"], [], 2)
    expect(words.map((w) => w.start)).toEqual([0, 0.5, 1, 1.5])
    expect(words[3]!.end).toBe(2)
  })

  it("ignores starts out of order or outside the audio", () => {
    const words = fillWordTimes(["a", "b", "c", "d"], [{ start: 1 }, { start: 0.5 }, { start: 9 }, { start: 1.5 }], 2)
    expect(words.map((w) => w.start)).toEqual([1, 1.167, 1.333, 1.5])
  })

  it("gives every word a time, in order and inside the audio, whatever the engine said", () => {
    const mark = fc.record({
      start: fc.option(fc.double({ min: -1, max: 12, noNaN: true }), { nil: undefined }),
      speechEnd: fc.option(fc.double({ min: -1, max: 12, noNaN: true }), { nil: undefined })
    })
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), mark), { maxLength: 40 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        (pairs, duration) => {
          const timed = fillWordTimes(pairs.map(([w]) => w), pairs.map(([, m]) => m), duration)
          expect(timed.map((w) => w.text)).toEqual(pairs.map(([w]) => w))
          const times = timed.flatMap((w) => [w.start, w.end])
          times.forEach((t, i) => {
            expect(t).toBeGreaterThanOrEqual(i === 0 ? 0 : times[i - 1]!)
            expect(t).toBeLessThanOrEqual(duration)
          })
        }
      )
    )
  })
})

describe("alignSpokenWords", () => {
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
    // "--" shares paid..it with "paid" by length (4 : 2); "paid" still ends where its sound stops.
    expect(words[1]).toEqual({ text: "paid", start: 0.2, end: 0.5 })
    expect(words[2]).toEqual({ text: "--", start: 0.533, end: 0.7 })
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

  it("splits a script on whitespace only", () => {
    expect(scriptWords("  Hi,\nthere —  you! ")).toEqual(["Hi,", "there", "—", "you!"])
  })
})
