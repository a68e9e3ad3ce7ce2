// Readability of caption lines: characters per second a line's page is on screen and characters per line,
// their maxima and means, and the shares over the limits (17 cps, 42 cpl).
import { describe, expect, it } from "vitest"
import { lineReading, MAX_CHARACTERS_PER_LINE, MAX_CHARACTERS_PER_SECOND, readabilityOf } from "../../domain/caption-readability.ts"
import { type CaptionPage, layoutCaptions, type TimedWord } from "../../domain/captions.ts"

const page = (start: number, end: number, ...texts: Array<string>): CaptionPage => ({
  start,
  end,
  lines: texts.map((text) => ({ start, end, text, words: [] }))
})

// 18 and 11 characters for 2 s; 33 in 1 s; 50 for 7 s.
const PAGES = [
  page(0, 2, "Hello there friend", "how are you"),
  page(2, 3, "This line is rather quick to read"),
  page(3, 10, "A line of fifty characters is longer than allowed.")
]

describe("caption readability", () => {
  it("measures each line against its page's time on screen", () => {
    expect(lineReading(PAGES[0]!, PAGES[0]!.lines[1]!)).toEqual({ characters: 11, charactersPerSecond: 5.5, tooFast: false, tooLong: false })
    expect(lineReading(PAGES[1]!, PAGES[1]!.lines[0]!)).toMatchObject({ characters: 33, charactersPerSecond: 33, tooFast: true, tooLong: false })
    expect(lineReading(PAGES[2]!, PAGES[2]!.lines[0]!)).toMatchObject({ characters: 50, tooFast: false, tooLong: true })
  })

  it("reports maxima, means and the shares over the limits of a known script", () => {
    expect(readabilityOf(PAGES)).toEqual({
      lines: 4,
      charactersPerSecond: { max: 33, mean: 13.66 },
      charactersPerLine: { max: 50, mean: 28 },
      maxCharactersPerSecond: MAX_CHARACTERS_PER_SECOND,
      maxCharactersPerLine: MAX_CHARACTERS_PER_LINE,
      tooFastShare: 0.25,
      tooLongShare: 0.25
    })
  })

  it("finds a calm speaker's laid-out captions within the limits, and a rushed one's over", () => {
    const spoken = (secondsPerWord: number): Array<TimedWord> =>
      "so here is how we make captions that people can read while they scroll past".split(" ")
        .map((text, i) => ({ text, start: i * secondsPerWord, end: (i + 1) * secondsPerWord - 0.02 }))
    const rules = { maxCharsPerLine: 24, linesPerPage: 1, pauseSeconds: 0.6 }
    expect(readabilityOf(layoutCaptions(spoken(0.4), rules)).tooFastShare).toBe(0)
    expect(readabilityOf(layoutCaptions(spoken(0.08), rules)).tooFastShare).toBeGreaterThan(0.5)
  })

  it("is all zeros without lines, and a page of no length reads as one frame long", () => {
    expect(readabilityOf([])).toMatchObject({ lines: 0, tooFastShare: 0, charactersPerLine: { max: 0, mean: 0 } })
    expect(lineReading(page(1, 1, "Hi"), page(1, 1, "Hi").lines[0]!).charactersPerSecond).toBeCloseTo(60, 6)
  })
})
