// How readable burned-in captions are, by the two measures subtitle guidelines set limits on: how fast
// a line must be read (characters per second it is on screen) and how long it is (characters per line).
// A line is on screen for its whole page, from the page's start to its end.
import { Schema } from "effect"
import type { CaptionLine, CaptionPage } from "./captions.ts"

/** Reading speed most guidelines allow adults (Netflix's English limit is 17 to 20). */
export const MAX_CHARACTERS_PER_SECOND = 17
/** Line length most guidelines allow (Netflix, the BBC and the EBU all say about 42). */
export const MAX_CHARACTERS_PER_LINE = 42
/** A page shorter than a frame still takes a frame to read: its speed is not divided by nearly nothing. */
const SHORTEST_SHOWING_SECONDS = 1 / 30

export interface LineReading {
  readonly characters: number
  readonly charactersPerSecond: number
  readonly tooFast: boolean
  readonly tooLong: boolean
}

/** Characters as a reader sees them: code points, spaces and punctuation included, as the guidelines count. */
const characterCount = (text: string): number => [...text.trim()].length

export const lineReading = (page: CaptionPage, line: CaptionLine): LineReading => {
  const characters = characterCount(line.text)
  const charactersPerSecond = characters / Math.max(page.end - page.start, SHORTEST_SHOWING_SECONDS)
  return {
    characters,
    charactersPerSecond,
    tooFast: charactersPerSecond > MAX_CHARACTERS_PER_SECOND,
    tooLong: characters > MAX_CHARACTERS_PER_LINE
  }
}

const round2 = (n: number): number => Math.round(n * 100) / 100

const Spread = Schema.Struct({
  max: Schema.Number.annotations({ description: "The highest line's." }),
  mean: Schema.Number.annotations({ description: "The mean over all lines." })
})

export const CaptionReadability = Schema.Struct({
  lines: Schema.Int.annotations({ description: "Caption lines measured." }),
  charactersPerSecond: Spread.annotations({
    description: "Reading speed: a line's characters (spaces and punctuation included) over the seconds its page is on screen."
  }),
  charactersPerLine: Spread.annotations({ description: "Line length in characters, spaces and punctuation included." }),
  maxCharactersPerSecond: Schema.Number.annotations({ description: `The reading-speed limit the shares use: ${MAX_CHARACTERS_PER_SECOND}.` }),
  maxCharactersPerLine: Schema.Int.annotations({ description: `The line-length limit the shares use: ${MAX_CHARACTERS_PER_LINE}.` }),
  tooFastShare: Schema.Number.annotations({ description: "The share of lines (0-1) read faster than the limit." }),
  tooLongShare: Schema.Number.annotations({ description: "The share of lines (0-1) longer than the limit." })
}).annotations({
  identifier: "CaptionReadability",
  description: "How readable the captions are, by the limits subtitle guidelines commonly set. The editor marks the lines over them."
})
export type CaptionReadability = typeof CaptionReadability.Type

/** The report over every line of the pages; zeros when there are none. Figures are rounded to hundredths. */
export const readabilityOf = (pages: ReadonlyArray<CaptionPage>): CaptionReadability => {
  const readings = pages.flatMap((page) => page.lines.map((line) => lineReading(page, line)))
  const n = readings.length
  const mean = (f: (r: LineReading) => number) => (n === 0 ? 0 : round2(readings.reduce((sum, r) => sum + f(r), 0) / n))
  const max = (f: (r: LineReading) => number) => round2(readings.reduce((m, r) => Math.max(m, f(r)), 0))
  const share = (f: (r: LineReading) => boolean) => (n === 0 ? 0 : round2(readings.filter(f).length / n))
  return {
    lines: n,
    charactersPerSecond: { max: max((r) => r.charactersPerSecond), mean: mean((r) => r.charactersPerSecond) },
    charactersPerLine: { max: max((r) => r.characters), mean: mean((r) => r.characters) },
    maxCharactersPerSecond: MAX_CHARACTERS_PER_SECOND,
    maxCharactersPerLine: MAX_CHARACTERS_PER_LINE,
    tooFastShare: share((r) => r.tooFast),
    tooLongShare: share((r) => r.tooLong)
  }
}
