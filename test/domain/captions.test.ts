// Caption layout (words -> lines -> pages), the SRT/VTT formats and their escapes, the style's field
// rules, and the built-in templates.
import { describe, expect, it } from "@effect/vitest"
import { Either, FastCheck as fc, JSONSchema, ParseResult, Schema } from "effect"
import {
  BUILT_IN_TEMPLATES,
  CaptionStyle,
  DEFAULT_TEMPLATE_ID,
  layoutCaptions,
  layoutRulesOf,
  PartialCaptionStyle,
  toSrt,
  toVtt
} from "../../domain/captions.ts"
import type { CaptionPage, LayoutRules, TimedWord } from "../../domain/captions.ts"

/** Words 0.1 s apart, each 0.3 s long: no pauses. */
const spoken = (text: string, gap = 0.1): Array<TimedWord> =>
  text.split(" ").map((word, i) => ({ text: word, start: i * (0.3 + gap), end: i * (0.3 + gap) + 0.3 }))

const texts = (pages: ReadonlyArray<CaptionPage>): Array<Array<string>> => pages.map((p) => p.lines.map((l) => l.text))

const rules: LayoutRules = { maxCharsPerLine: 10, linesPerPage: 2, pauseSeconds: 0.7 }

describe("layoutCaptions", () => {
  it("fills lines up to maxCharsPerLine and pages up to linesPerPage", () => {
    const pages = layoutCaptions(spoken("one two three four five six seven"), rules)
    expect(texts(pages)).toEqual([["one two", "three four"], ["five six", "seven"]])
    expect(pages[0]).toMatchObject({ start: 0, end: 3 * 0.4 + 0.3 })
    expect(pages[1]!.lines[1]).toMatchObject({ start: 6 * 0.4, end: 6 * 0.4 + 0.3, text: "seven" })
  })

  it("puts a word longer than a line alone on its own line", () => {
    const pages = layoutCaptions(spoken("a internationalization b"), rules)
    expect(texts(pages)).toEqual([["a", "internationalization"], ["b"]])
  })

  it("ends the page at a pause of at least pauseSeconds", () => {
    const words: Array<TimedWord> = [
      { text: "hi", start: 0, end: 0.5 },
      { text: "there", start: 1.2, end: 1.6 },
      { text: "you", start: 2.29, end: 2.5 }
    ]
    expect(texts(layoutCaptions(words, rules))).toEqual([["hi"], ["there you"]])
  })

  it("ends the page after a sentence and the line after a clause", () => {
    expect(texts(layoutCaptions(spoken("Hi. there"), rules))).toEqual([["Hi."], ["there"]])
    expect(texts(layoutCaptions(spoken("Wait?! no"), rules))).toEqual([["Wait?!"], ["no"]])
    expect(texts(layoutCaptions(spoken("\"Go.\" now"), rules))).toEqual([["\"Go.\""], ["now"]])
    expect(texts(layoutCaptions(spoken("Hi, there"), rules))).toEqual([["Hi,", "there"]])
    expect(texts(layoutCaptions(spoken("so; a b"), rules))).toEqual([["so;", "a b"]])
  })

  it("returns no pages for no words", () => {
    expect(layoutCaptions([], rules)).toEqual([])
  })

  it("uses the style's line rules with a 0.7 s pause", () => {
    const style = BUILT_IN_TEMPLATES.find((t) => t.id === -3)!.style
    expect(layoutRulesOf(style)).toEqual({ maxCharsPerLine: 32, linesPerPage: 1, pauseSeconds: 0.7 })
  })
})

type Ending = "none" | "clause" | "sentence"
const SUFFIXES: Record<Ending, ReadonlyArray<string>> = {
  none: [""],
  clause: [",", ";", ":", ",\""],
  sentence: [".", "?", "!", "…", ".\"", "?)"]
}

interface GeneratedWord {
  readonly letters: string
  readonly ending: Ending
  readonly suffix: number
  readonly gap: number
  readonly length: number
}

const wordArb: fc.Arbitrary<GeneratedWord> = fc.record({
  letters: fc.oneof(
    { weight: 9, arbitrary: fc.stringMatching(/^[a-z]{1,8}$/) },
    { weight: 1, arbitrary: fc.stringMatching(/^[a-z]{9,70}$/) }
  ),
  ending: fc.constantFrom<Ending>("none", "none", "none", "none", "clause", "sentence"),
  suffix: fc.nat(5),
  gap: fc.oneof(fc.double({ min: 0, max: 0.4, noNaN: true }), fc.double({ min: 0, max: 2, noNaN: true })),
  length: fc.double({ min: 0.05, max: 1, noNaN: true })
})

const rulesArb: fc.Arbitrary<LayoutRules> = fc.record({
  maxCharsPerLine: fc.integer({ min: 8, max: 60 }),
  linesPerPage: fc.integer({ min: 1, max: 3 }),
  pauseSeconds: fc.double({ min: 0.2, max: 1.5, noNaN: true })
})

/** Timed words, and for each the punctuation class it ends with (the oracle, kept apart from the text). */
const timed = (generated: ReadonlyArray<GeneratedWord>): { words: Array<TimedWord>; endings: Array<Ending> } => {
  const words: Array<TimedWord> = []
  let clock = 0
  for (const g of generated) {
    const suffixes = SUFFIXES[g.ending]
    const start = clock + g.gap
    clock = start + g.length
    words.push({ text: g.letters + suffixes[g.suffix % suffixes.length]!, start, end: clock })
  }
  return { words, endings: generated.map((g) => g.ending) }
}

describe("layoutCaptions: properties", () => {
  it.prop(
    "keeps every word once, in order, and respects the line and page limits",
    { generated: fc.array(wordArb, { maxLength: 60 }), rules: rulesArb },
    ({ generated, rules }) => {
      const { words } = timed(generated)
      const pages = layoutCaptions(words, rules)
      expect(pages.flatMap((p) => p.lines.flatMap((l) => l.words))).toEqual(words)
      for (const page of pages) {
        expect(page.lines.length).toBeGreaterThanOrEqual(1)
        expect(page.lines.length).toBeLessThanOrEqual(rules.linesPerPage)
        expect(page.start).toBe(page.lines[0]!.start)
        expect(page.end).toBe(page.lines[page.lines.length - 1]!.end)
        for (const line of page.lines) {
          expect(line.words.length).toBeGreaterThanOrEqual(1)
          expect(line.text).toBe(line.words.map((w) => w.text).join(" "))
          if (line.words.length > 1) expect(line.text.length).toBeLessThanOrEqual(rules.maxCharsPerLine)
          expect(line.start).toBe(line.words[0]!.start)
          expect(line.end).toBe(line.words[line.words.length - 1]!.end)
        }
      }
    }
  )

  it.prop(
    "breaks pages at pauses and sentence ends, lines at clauses, and nowhere without a reason",
    { generated: fc.array(wordArb, { minLength: 2, maxLength: 60 }), rules: rulesArb },
    ({ generated, rules }) => {
      const { endings, words } = timed(generated)
      const pages = layoutCaptions(words, rules)
      // Where each word landed: its page, its line on that page, and whether it opens either.
      const placed = pages.flatMap((page, p) =>
        page.lines.flatMap((line, l) =>
          line.words.map((_, w) => ({ page: p, line: l, opensLine: w === 0, opensPage: w === 0 && l === 0 }))
        )
      )
      for (let i = 1; i < words.length; i++) {
        const previous = words[i - 1]!
        const word = words[i]!
        const at = placed[i]!
        const pause = word.start - previous.end >= rules.pauseSeconds
        const sentence = endings[i - 1] === "sentence"
        const clause = endings[i - 1] === "clause"
        if (pause || sentence) expect(at.opensPage).toBe(true)
        if (clause) expect(at.opensLine).toBe(true)
        if (!at.opensLine) continue
        const before = placed[i - 1]!
        const previousLine = pages[before.page]!.lines[before.line]!
        const overflow = previousLine.text.length + 1 + word.text.length > rules.maxCharsPerLine
        if (!pause && !sentence) {
          // A line only ends early at a clause, and a page only when its lines are full.
          expect(clause || overflow).toBe(true)
          if (at.opensPage) expect(pages[before.page]!.lines.length).toBe(rules.linesPerPage)
        }
      }
    }
  )
})

describe("toSrt and toVtt", () => {
  const pages: ReadonlyArray<CaptionPage> = [
    {
      start: 1.234,
      end: 2.5,
      lines: [
        { start: 1.234, end: 2, text: "Hello world", words: [] },
        { start: 2.1, end: 2.5, text: "again", words: [] }
      ]
    },
    { start: 3661.007, end: 3662, lines: [{ start: 3661.007, end: 3662, text: "Bye.", words: [] }] }
  ]

  it("writes numbered SRT cues with comma milliseconds", () => {
    expect(toSrt(pages)).toBe(
      "1\n00:00:01,234 --> 00:00:02,500\nHello world\nagain\n\n" +
        "2\n01:01:01,007 --> 01:01:02,000\nBye.\n"
    )
  })

  it("writes a WEBVTT header and cues with dot milliseconds", () => {
    expect(toVtt(pages)).toBe(
      "WEBVTT\n\n" +
        "00:00:01.234 --> 00:00:02.500\nHello world\nagain\n\n" +
        "01:01:01.007 --> 01:01:02.000\nBye.\n"
    )
  })

  it("rounds to the millisecond, carrying into seconds and minutes", () => {
    const page = (start: number, end: number): CaptionPage => ({ start, end, lines: [] })
    expect(toSrt([page(59.9996, 0.0004)])).toBe("1\n00:01:00,000 --> 00:00:00,000\n\n")
    expect(toVtt([page(35999.9999, 36000.001)])).toBe("WEBVTT\n\n10:00:00.000 --> 10:00:00.001\n\n")
    expect(toSrt([page(59.5, 7199.999)])).toBe("1\n00:00:59,500 --> 01:59:59,999\n\n")
  })

  it("writes nothing but the header for no pages", () => {
    expect(toSrt([])).toBe("")
    expect(toVtt([])).toBe("WEBVTT\n\n")
  })

  it.prop(
    "numbers every laid-out page and formats every timestamp",
    { generated: fc.array(wordArb, { minLength: 1, maxLength: 40 }), rules: rulesArb },
    ({ generated, rules }) => {
      const pages = layoutCaptions(timed(generated).words, rules)
      const srtCues = toSrt(pages).split("\n\n")
      expect(srtCues.map((cue) => cue.split("\n")[0])).toEqual(pages.map((_, i) => String(i + 1)))
      for (const cue of srtCues) expect(cue.split("\n")[1]).toMatch(/^\d{2}:\d{2}:\d{2},\d{3} --> \d{2}:\d{2}:\d{2},\d{3}$/)
      const vttCues = toVtt(pages).split("\n\n")
      expect(vttCues[0]).toBe("WEBVTT")
      expect(vttCues.length).toBe(pages.length + 1)
      for (const cue of vttCues.slice(1)) {
        expect(cue.split("\n")[0]).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}$/)
      }
    }
  )
})

describe("toSrt and toVtt: what a word holds stays text", () => {
  const hostile = [
    "\\N{\\b1}",
    "{\\pos(0,0)}",
    "a,b",
    "two\nlines",
    "\n\n2\n00:00:00,000 --> 00:00:09,000\nforged",
    "-->",
    "<b>",
    "&amp;"
  ]
  const words: ReadonlyArray<TimedWord> = hostile.map((text, i) => ({ text, start: i, end: i + 0.5 }))
  // One page per word (a page closes at a pause), so the scripts must hold exactly one cue per word.
  const pages = layoutCaptions(words, { maxCharsPerLine: 60, linesPerPage: 1, pauseSeconds: 0.2 })
  const timing = /^\d{2}:\d{2}:\d{2}[,.]\d{3} --> \d{2}:\d{2}:\d{2}[,.]\d{3}$/

  it("SRT: one cue a page, no line break or timing line a word could forge, markup broken by a word joiner", () => {
    expect(pages).toHaveLength(hostile.length)
    const srt = toSrt(pages)
    const cues = srt.replace(/\n$/, "").split("\n\n")
    expect(cues).toHaveLength(hostile.length)
    expect(srt.split("\n").filter((line) => line.includes("-->"))).toHaveLength(hostile.length)
    cues.forEach((cue, i) => {
      const [number, times, ...text] = cue.split("\n")
      expect(number).toBe(String(i + 1))
      expect(times).toMatch(timing)
      expect(text).toHaveLength(1)
      expect(text[0]!.replace(/\u2060/g, "")).toBe(hostile[i]!.replace(/\n+/g, " "))
      expect(text[0]).not.toMatch(/<[^\u2060]|&[^\u2060]|\{[^\u2060]|\\[^\u2060]|-->/)
    })
    expect(cues[6]).toBe("7\n00:00:06,000 --> 00:00:06,500\n<\u2060b>")
  })

  it("VTT: one cue a page, &, < and > as character references, no payload line with -->", () => {
    const vtt = toVtt(pages)
    const [header, ...cues] = vtt.replace(/\n$/, "").split("\n\n")
    expect(header).toBe("WEBVTT")
    expect(cues).toHaveLength(hostile.length)
    expect(vtt.split("\n").filter((line) => line.includes("-->"))).toHaveLength(hostile.length)
    const payloads = cues.map((cue) => {
      const [times, ...text] = cue.split("\n")
      expect(times).toMatch(timing)
      expect(text).toHaveLength(1)
      expect(text[0]).not.toMatch(/[<>]|&(?!amp;|lt;|gt;)|-->/)
      return text[0]
    })
    expect(payloads.slice(4)).toEqual([
      " 2 00:00:00,000 --&gt; 00:00:09,000 forged",
      "--&gt;",
      "&lt;b&gt;",
      "&amp;amp;"
    ])
  })

  it("leaves out a blank line, which would end the cue", () => {
    const page: CaptionPage = {
      start: 0,
      end: 1,
      lines: [{ start: 0, end: 0.5, text: "one", words: [] }, { start: 0.5, end: 1, text: "\u2028", words: [] }, { start: 0.5, end: 1, text: "two", words: [] }]
    }
    expect(toSrt([page])).toBe("1\n00:00:00,000 --> 00:00:01,000\none\ntwo\n")
    expect(toVtt([page])).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:01.000\none\ntwo\n")
  })
})

describe("CaptionStyle field rules", () => {
  const problem = (fields: Record<string, unknown>) =>
    Either.match(Schema.decodeUnknownEither(PartialCaptionStyle)(fields, { errors: "all" }), {
      onLeft: (error) => [...new Set(ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => issue.path.join(".")))],
      onRight: () => []
    })

  it("takes font families of letters and digits joined by single spaces or hyphens, up to 64 characters", () => {
    for (const fontFamily of ["DejaVu Sans", "Noto Sans CJK JP", "Source-Code-Pro 3", "A".repeat(64)]) {
      expect(problem({ fontFamily }), fontFamily).toEqual([])
    }
  })

  it("refuses a font family that could reach past its field, naming the field", () => {
    const bad = [
      "Arial\n[Events]\nDialogue: 0,0:00:00.00,9:00:00.00,Caption,,0,0,0,,owned",
      "Arial,Bold",
      "Arial{\\b1}",
      "Arial\\N",
      "Arial\r",
      " Arial",
      "Arial ",
      "Dejavu  Sans",
      "Arial\tSans",
      "",
      "A".repeat(65)
    ]
    for (const fontFamily of bad) expect(problem({ fontFamily }), JSON.stringify(fontFamily)).toEqual(["fontFamily"])
  })

  it("takes colours only as #RRGGBB", () => {
    expect(problem({ textColor: "#a1B2c3", boxColor: null })).toEqual([])
    for (const colour of ["red", "#FFF", "#GGGGGG", "#FFFFFF\n", "#FFFFFF}", "&H00FFFFFF"]) {
      expect(problem({ textColor: colour, highlightColor: colour, outlineColor: colour, boxColor: colour }), colour).toEqual([
        "textColor",
        "highlightColor",
        "outlineColor",
        "boxColor"
      ])
    }
  })

  it("keeps the rules and their descriptions in the JSON Schema", () => {
    expect(JSONSchema.make(CaptionStyle).$defs?.CaptionStyle).toMatchObject({
      properties: {
        fontFamily: { type: "string", maxLength: 64, pattern: "^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$", description: expect.stringContaining("letters") },
        textColor: { pattern: "^#[0-9a-fA-F]{6}$", description: "Text colour, #RRGGBB." }
      }
    })
  })
})

describe("BUILT_IN_TEMPLATES", () => {
  it("offers at least six built-in styles with distinct negative ids, the default among them", () => {
    expect(BUILT_IN_TEMPLATES.length).toBeGreaterThanOrEqual(6)
    const ids = BUILT_IN_TEMPLATES.map((t) => t.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const t of BUILT_IN_TEMPLATES) {
      expect(Number.isInteger(t.id)).toBe(true)
      expect(t.id).toBeLessThan(0)
      expect(t.builtIn).toBe(true)
      expect(t.name.length).toBeGreaterThan(0)
    }
    expect(DEFAULT_TEMPLATE_ID).toBe(-1)
    expect(ids).toContain(DEFAULT_TEMPLATE_ID)
    expect(new Set(BUILT_IN_TEMPLATES.map((t) => t.name)).size).toBe(BUILT_IN_TEMPLATES.length)
  })

  it("holds only styles that pass the CaptionStyle schema", () => {
    for (const t of BUILT_IN_TEMPLATES) expect(Schema.decodeUnknownSync(CaptionStyle)(t.style)).toEqual(t.style)
  })
})
