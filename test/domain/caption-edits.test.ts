// The editing rules shared by the editor and PATCH /v1/videos/:id/captions: checks that name the wrong
// field, words split by their text, lines broken where a person says, style adjustments over a template.
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  adjustedStyle,
  checkLineStarts,
  checkWords,
  lineStartsOf,
  mergeWithNext,
  splitLineAt,
  retypedRuns,
  splitSpacedWords
} from "../../domain/caption-edits.ts"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf, placementOf, type TimedWord } from "../../domain/captions.ts"

const words = (...texts: ReadonlyArray<string>): ReadonlyArray<TimedWord> => texts.map((text, i) => ({ text, start: i * 0.5, end: i * 0.5 + 0.4 }))
const style = BUILT_IN_TEMPLATES[0]!.style
const rules = { maxCharsPerLine: 40, linesPerPage: 2, pauseSeconds: 0.7 }

describe("checkWords", () => {
  it("accepts words in order inside the video", () => {
    expect(Either.isRight(checkWords(words("one", "two", "three"), 2))).toBe(true)
  })

  it("names the field of a blank word, a reversed word, one out of order and one past the end", () => {
    const field = (ws: ReadonlyArray<TimedWord>) => Either.match(checkWords(ws, 2), { onLeft: (p) => p.field, onRight: () => "ok" })
    expect(field([{ text: " ", start: 0, end: 0.2 }])).toBe("words.0.text")
    expect(field([{ text: "a", start: 0.5, end: 0.2 }])).toBe("words.0.end")
    expect(field([{ text: "a", start: 1, end: 1.2 }, { text: "b", start: 0.5, end: 0.7 }])).toBe("words.1.start")
    expect(field([{ text: "a", start: 1, end: 9 }])).toBe("words.0.end")
  })
})

describe("checkLineStarts", () => {
  it("takes null (automatic) and ascending starts from word 0", () => {
    expect(checkLineStarts(null, 3)).toEqual(Either.right(null))
    expect(checkLineStarts([0, 2], 3)).toEqual(Either.right([0, 2]))
  })

  it("refuses a first line not at 0, a start past the words, and starts out of order", () => {
    expect(Either.getLeft(checkLineStarts([1], 3))).toMatchObject({ _tag: "Some", value: { field: "lineStarts.0" } })
    expect(Either.getLeft(checkLineStarts([0, 3], 3))).toMatchObject({ _tag: "Some", value: { field: "lineStarts.1" } })
    expect(Either.getLeft(checkLineStarts([0, 2, 2], 3))).toMatchObject({ _tag: "Some", value: { field: "lineStarts.2" } })
  })
})

describe("splitSpacedWords", () => {
  it("turns a word edited into two into two words sharing its time by length, moving the line starts after it", () => {
    const edited: ReadonlyArray<TimedWord> = [{ text: "gonna", start: 0, end: 0.4 }, { text: "going to", start: 0.5, end: 1.3 }, { text: "go", start: 1.4, end: 1.6 }]
    const split = splitSpacedWords(edited, [0, 2])
    expect(split.words.map((w) => w.text)).toEqual(["gonna", "going", "to", "go"])
    expect(split.words[1]).toEqual({ text: "going", start: 0.5, end: 0.5 + 0.8 * 5 / 7 })
    expect(split.words[2]!.end).toBe(1.3)
    expect(split.lineStarts).toEqual([0, 3])
  })

  it("keeps an untouched word's confidence", () => {
    const split = splitSpacedWords([{ text: "sure", start: 0, end: 0.4, confidence: 0.3 }, { text: "two words", start: 0.5, end: 1 }], null)
    expect(split.words[0]).toEqual({ text: "sure", start: 0, end: 0.4, confidence: 0.3 })
    expect(split.words[1]).not.toHaveProperty("confidence")
  })
})

describe("layoutCaptions with line starts", () => {
  const ws = words("one", "two", "three", "four", "five")

  it("breaks lines exactly at the starts, pages after linesPerPage lines", () => {
    const pages = layoutCaptions(ws, rules, [0, 1, 3, 4])
    expect(pages.map((p) => p.lines.map((l) => l.text))).toEqual([["one", "two three"], ["four", "five"]])
  })

  it("still closes a page at a sentence's end", () => {
    const pages = layoutCaptions(words("Stop.", "Go", "now"), rules, [0, 1])
    expect(pages.map((p) => p.lines.map((l) => l.text))).toEqual([["Stop."], ["Go now"]])
  })

  it("round-trips through lineStartsOf, and split / merge move one break", () => {
    const auto = layoutCaptions(ws, { ...rules, maxCharsPerLine: 9 })
    const starts = lineStartsOf(auto)
    expect(layoutCaptions(ws, { ...rules, maxCharsPerLine: 9 }, starts)).toEqual(auto)
    expect(splitLineAt([0, 3], 1)).toEqual([0, 1, 3])
    expect(mergeWithNext([0, 1, 3], 0)).toEqual([0, 3])
  })
})

describe("style adjustments and placement", () => {
  it("lays the adjustments over the template and moves the block by its margin", () => {
    const moved = adjustedStyle(style, { position: "top", marginRatio: 0.2, textColor: "#FF0000" })
    expect(moved).toEqual({ ...style, position: "top", marginRatio: 0.2, textColor: "#FF0000" })
    expect(placementOf(moved)).toEqual({ edge: "top", marginRatio: 0.2 })
    expect(placementOf({ ...style, position: "bottom" })).toEqual({ edge: "bottom", marginRatio: 0.08 })
    expect(placementOf({ ...style, position: "middle", marginRatio: 0.3 })).toEqual({ edge: "centre", marginRatio: 0 })
    expect(layoutRulesOf(moved)).toEqual(layoutRulesOf(style))
  })
})

describe("retypedRuns", () => {
  it("finds the runs of words whose text is not among the stored words", () => {
    const stored = words("good", "morning", "every", "one", "welcome")
    expect(retypedRuns(stored, words("Good", "morning", "everyone", "welcome"))).toEqual([{ first: 0, end: 1 }, { first: 2, end: 3 }])
    expect(retypedRuns(stored, stored)).toEqual([])
    expect(retypedRuns([], words("a", "b"))).toEqual([{ first: 0, end: 2 }])
  })
})
