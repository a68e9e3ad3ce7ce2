import { describe, expect, it } from "vitest"
import { commonSubsequence, matchScript, scriptMarks, scriptSpans } from "../../domain/script-alignment.ts"

const heard = (text: string, step = 0.5) => text.split(" ").map((w, i) => ({ text: w, start: i * step, end: i * step + step * 0.8 }))

describe("script alignment rules", () => {
  it("finds a longest common subsequence", () => {
    const pairs = commonSubsequence(["a", "b", "c", "a", "b", "d"], ["b", "a", "b", "d", "c"])
    expect(pairs.length).toBe(4)
    expect(pairs.map(([i]) => ["a", "b", "c", "a", "b", "d"][i])).toEqual(["b", "a", "b", "d"])
  })

  it("measures how much of a script was heard, and anchors only words heard in a run", () => {
    const match = matchScript("The cat sat on 2 mats.".split(" "), heard("the cat sat in two mats"))
    expect(match.heardShare).toBeCloseTo(5 / 6)
    expect(match.anchors.map((a) => a.word)).toEqual([0, 1, 2, 4, 5])
    expect(match.anchors[4]).toMatchObject({ word: 5, heard: 5, start: 2.5 })
    expect(matchScript("Quarterly revenue grew slowly".split(" "), heard("the cat sat in two mats")).heardShare).toBe(0)
  })

  it("makes one span per timed cue, widened into the gaps beside it", () => {
    const spans = scriptSpans([{ words: ["a", "b"], start: 1, end: 2 }, { words: ["c"], start: 2.4, end: 3 }], [], 10)
    expect(spans).toEqual([{ start: 0.5, end: 2.2, firstWord: 0, endWord: 2 }, { start: 2.2, end: 3.5, firstWord: 2, endWord: 3 }])
  })

  it("cuts untimed text between words heard one after the other, near every 20 s", () => {
    const words = Array.from({ length: 120 }, (_, i) => `w${i}`)
    const spans = scriptSpans([{ words, start: null, end: null }], matchScript(words, heard(words.join(" "))).anchors, 60)
    expect(spans.length).toBeGreaterThan(1)
    expect(spans[0]!.start).toBe(0)
    expect(spans.at(-1)!.end).toBe(60)
    spans.slice(1).forEach((span, k) => {
      expect(span.start).toBe(spans[k]!.end)
      expect(span.firstWord).toBe(spans[k]!.endWord)
    })
    expect(spans.at(-1)!.endWord).toBe(120)
  })

  it("keeps the words of a span the aligner placed nothing of inside it", () => {
    const spans = [{ start: 0, end: 2, firstWord: 0, endWord: 2 }, { start: 2, end: 5, firstWord: 2, endWord: 5 }]
    const marks = scriptMarks(spans, [[{ start: 0.1, speechEnd: 0.5 }, {}], [{}, {}, {}]])
    expect(marks).toEqual([{ start: 0.1, speechEnd: 0.5 }, {}, { start: 2 }, {}, { speechEnd: 5 }])
  })
})
