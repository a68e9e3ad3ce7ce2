// Trim planning: which pauses and fillers are cut, on frame boundaries, and where words land afterwards.
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import type { TimedWord } from "../../domain/captions.ts"
import { checkCuts, cutSeconds, keptSpans, outputTime, planCuts, retimeCaptions } from "../../domain/trim.ts"

const w = (text: string, start: number, end: number): TimedWord => ({ text, start, end })

// 0.7 s of silence, "so", a 0.9 s pause, "um", "the the", a 0.3 s pause, "answer", 0.8 s of silence.
const words = [
  w("so", 0.7, 0.9),
  w("um", 1.8, 2.2),
  w("the", 2.3, 2.5),
  w("the", 2.55, 2.7),
  w("answer", 3.0, 3.6)
]
const DURATION = 4.4

const onGrid = (t: number) => Math.abs(t * 30 - Math.round(t * 30)) < 1e-6

describe("planCuts", () => {
  it("cuts nothing when nothing is asked", () => {
    expect(planCuts(words, DURATION, { silence: "off", fillers: false })).toEqual([])
  })

  it("natural: the leading and trailing silence and the pause of 0.6 s or more, keeping a breath", () => {
    const cuts = planCuts(words, DURATION, { silence: "natural", fillers: false })
    expect(cuts.map((c) => c.reason)).toEqual(["silence", "silence", "silence"])
    // Before "so": from the start to 0.15 s before the word.
    expect(cuts[0]!.start).toBe(0)
    expect(cuts[0]!.end).toBeCloseTo(0.533, 2)
    // The second between "so" (ends 0.9) and "um" (starts 1.8): 0.15 s kept on each side.
    expect(cuts[1]!.start).toBeCloseTo(1.067, 2)
    expect(cuts[1]!.end).toBeCloseTo(1.633, 2)
    // After "answer" to the end.
    expect(cuts[2]!.end).toBe(DURATION)
    for (const cut of cuts) expect(onGrid(cut.start) && onGrid(cut.end)).toBe(true)
  })

  it("fast also cuts the 0.3 s pause; fillers and the first of a repeated word go with the pauses around them", () => {
    const cuts = planCuts(words, DURATION, { silence: "fast", fillers: true })
    expect(cuts.map((c) => c.reason)).toEqual(["silence", "filler", "silence", "silence"])
    const filler = cuts[1]!
    // From after "so" to before the second "the": "um" and the first "the" are inside.
    expect(filler.start).toBeLessThanOrEqual(1.8)
    expect(filler.start).toBeGreaterThan(0.9)
    expect(filler.end).toBeGreaterThanOrEqual(2.5)
    expect(filler.end).toBeLessThan(2.55)
    expect(cuts[2]!.start).toBeGreaterThan(2.7)
    expect(cuts[2]!.end).toBeLessThan(3.0)
  })

  it("with pauses left alone, cuts only the fillers and a tenth of a second around them", () => {
    const cuts = planCuts(words, DURATION, { silence: "off", fillers: true })
    expect(cuts).toHaveLength(1)
    expect(cuts[0]!.reason).toBe("filler")
    expect(cuts[0]!.start).toBeCloseTo(0.967, 2)
    expect(cuts[0]!.end).toBeCloseTo(2.5, 2)
  })

  it("never cuts into a word", () => {
    for (const silence of ["natural", "fast", "extra-fast"] as const) {
      const cuts = planCuts(words, DURATION, { silence, fillers: true })
      const kept = [words[0]!, words[3]!, words[4]!]
      for (const cut of cuts) for (const word of kept) expect(cut.end <= word.start || cut.start >= word.end).toBe(true)
    }
  })
})

describe("the output's timeline", () => {
  const cuts = planCuts(words, DURATION, { silence: "fast", fillers: true })

  it("is the source less the cuts", () => {
    const kept = keptSpans(cuts, DURATION)
    expect(kept.reduce((sum, span) => sum + span.end - span.start, 0)).toBeCloseTo(DURATION - cutSeconds(cuts), 9)
    expect(outputTime(cuts, 0)).toBe(0)
    expect(outputTime(cuts, DURATION)).toBeCloseTo(DURATION - cutSeconds(cuts), 9)
  })

  it("drops the cut words and moves the rest back by the cuts before them, line starts following", () => {
    const { lineStarts, words: out } = retimeCaptions(words, [0, 2, 4], cuts)
    expect(out.map((word) => word.text)).toEqual(["so", "the", "answer"])
    const before = cuts.filter((cut) => cut.end <= 3.0)
    expect(out[2]!.start).toBeCloseTo(3.0 - cutSeconds(before), 9)
    expect(out[2]!.end - out[2]!.start).toBeCloseTo(0.6, 9)
    // Line 2 began at the cut "the" (index 2): it now begins at the kept "the".
    expect(lineStarts).toEqual([0, 1, 2])
  })
})

describe("checkCuts", () => {
  it("puts a person's cuts in order and merges overlaps; refuses one that ends before it starts, naming it", () => {
    expect(checkCuts([{ start: 2, end: 3, reason: "silence" }, { start: 0.5, end: 1, reason: "filler" }, { start: 2.5, end: 3.5, reason: "silence" }], 10))
      .toEqual(Either.right([{ start: 0.5, end: 1, reason: "filler" }, { start: 2, end: 3.5, reason: "silence" }]))
    expect(checkCuts([{ start: 1, end: 1, reason: "silence" }], 10)).toEqual(Either.left({ field: "cuts.0.end", message: "end must come after start." }))
    expect(Either.isLeft(checkCuts([{ start: 11, end: 12, reason: "silence" }], 10))).toBe(true)
    expect(checkCuts([{ start: 0, end: 9.5, reason: "silence" }], 10)).toEqual(
      Either.left({ field: "cuts", message: "The cuts leave less than 1 s of the video: restore some of it." })
    )
  })
})
