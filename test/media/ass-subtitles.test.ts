import { describe, expect, it } from "@effect/vitest"
import { assColour, assSubtitles, escapeAssText } from "../../adapters/media/ass-subtitles.ts"
import {
  BUILT_IN_TEMPLATES,
  type CaptionPage,
  type CaptionStyle,
  layoutCaptions,
  layoutRulesOf,
  type TimedWord
} from "../../domain/captions.ts"

const styleOf = (id: number): CaptionStyle => BUILT_IN_TEMPLATES.find((t) => t.id === id)!.style
const boldPop = styleOf(-1)

const timed = (text: string, start = 1, step = 0.5): ReadonlyArray<TimedWord> =>
  text.split(" ").map((word, i) => ({ text: word, start: start + i * step, end: start + i * step + step * 0.8 }))

const page = (words: ReadonlyArray<TimedWord>, perLine = words.length): CaptionPage => {
  const lines = []
  for (let i = 0; i < words.length; i += perLine) {
    const chunk = words.slice(i, i + perLine)
    lines.push({ start: chunk[0]!.start, end: chunk[chunk.length - 1]!.end, text: chunk.map((w) => w.text).join(" "), words: chunk })
  }
  return { start: words[0]!.start, end: words[words.length - 1]!.end, lines }
}

interface Event {
  readonly layer: number
  readonly start: number
  readonly end: number
  readonly style: string
  readonly text: string
}

const seconds = (clock: string): number => {
  const match = /^(\d+):(\d\d):(\d\d)\.(\d\d)$/.exec(clock)
  if (match === null) throw new Error(`bad ASS time ${clock}`)
  const [, h, m, s, cs] = match.map(Number)
  return h! * 3600 + m! * 60 + s! + cs! / 100
}

const events = (ass: string): ReadonlyArray<Event> =>
  ass
    .split("\n")
    .filter((line) => line.startsWith("Dialogue: "))
    .map((line) => {
      const fields = line.slice("Dialogue: ".length).split(",")
      return {
        layer: Number(fields[0]),
        start: seconds(fields[1]!),
        end: seconds(fields[2]!),
        style: fields[3]!,
        text: fields.slice(9).join(",")
      }
    })

/** The text a viewer sees: override blocks removed, escapes resolved. */
const visible = (text: string): string =>
  text.replace(/(?<!\\)\{[^}]*\}/g, "").replace(/\\N/g, "\n").replace(/\\([{}])/g, "$1").replace(/\u2060/g, "")

const styleFields = (ass: string, name: string): Record<string, string> => {
  const lines = ass.split("\n")
  const format = lines.find((l) => l.startsWith("Format: Name"))!.slice("Format: ".length).split(", ")
  const values = lines.find((l) => l.startsWith(`Style: ${name},`))!.slice("Style: ".length).split(",")
  return Object.fromEntries(format.map((key, i) => [key, values[i]!]))
}

const render = (pages: ReadonlyArray<CaptionPage>, style: CaptionStyle, width = 360, height = 640) =>
  assSubtitles({ pages, style, width, height, format: "standard" })

describe("assSubtitles", () => {
  it("sizes the script and the font to the output", () => {
    const ass = render([page(timed("hello world"))], boldPop, 1080, 1920)
    expect(ass).toContain("PlayResX: 1080\n")
    expect(ass).toContain("PlayResY: 1920\n")
    const style = styleFields(ass, "Caption")
    expect(Number(style.Fontsize)).toBe(Math.round(boldPop.fontSizeRatio * 1920))
    expect(Number(style.Outline)).toBeCloseTo(boldPop.outlineRatio * Number(style.Fontsize), 0)
    expect(style.Fontname).toBe("DejaVu Sans")
    expect(style.Bold).toBe("-1")
  })

  it("writes colours as &HAABBGGRR", () => {
    expect(assColour("#FFE000")).toBe("&H0000E0FF")
    expect(assColour("#3cf0ff")).toBe("&H00FFF03C")
  })

  it("word-pop: one event per word, from its start to the next word's start, the active word highlighted", () => {
    const words = timed("one two three four", 2, 0.6)
    const list = events(render([page(words, 2)], boldPop))
    expect(list).toHaveLength(4)
    list.forEach((event, i) => {
      expect(event.start).toBeCloseTo(words[i]!.start, 2)
      expect(event.end).toBeCloseTo(words[i + 1]?.start ?? words[3]!.end, 2)
      // every event shows the whole page, lines split by \N
      expect(visible(event.text)).toBe("ONE TWO\nTHREE FOUR")
      const highlighted = [...event.text.matchAll(/\{\\c&H00E0FF&\\fscx112\\fscy112\}([^{]+)\{/g)].map((m) => m[1])
      expect(highlighted).toEqual([words[i]!.text.toUpperCase()])
    })
  })

  it("karaoke-fill: one event per page with a \\kf sweep over each word's duration", () => {
    const style = styleOf(-2)
    const words = timed("alpha beta gamma", 0, 0.5)
    const [event, ...rest] = events(render([page(words)], style))
    expect(rest).toHaveLength(0)
    expect(event!.start).toBe(0)
    expect(event!.end).toBeCloseTo(words[2]!.end, 2)
    expect([...event!.text.matchAll(/\{\\kf(\d+)\}(\w+)\{\\k(\d+)\}/g)].map((m) => [m[2], Number(m[1]), Number(m[3])])).toEqual([
      ["alpha", 40, 10],
      ["beta", 40, 10],
      ["gamma", 40, 0]
    ])
    // the sweep goes from the secondary (text) colour to the primary (highlight) colour
    const fields = styleFields(render([page(words)], style), "Caption")
    expect(fields.PrimaryColour).toBe(assColour(style.highlightColor))
    expect(fields.SecondaryColour).toBe(assColour(style.textColor))
  })

  it("none: one plain event per page", () => {
    const style = styleOf(-3)
    const first = timed("first page here", 0, 0.3)
    const second = timed("second page", 5, 0.3)
    const list = events(render([page(first), page(second)], style))
    expect(list.map((e) => [e.start, visible(e.text)])).toEqual([
      [0, "first page here"],
      [5, "second page"]
    ])
    list.forEach((e) => expect(e.text).not.toContain("{"))
  })

  it("box-word: the page on layer 0, the active word alone in a highlight box on layer 1", () => {
    const style = styleOf(-4)
    const words = timed("in a box", 1, 0.5)
    const ass = render([page(words)], style)
    const list = events(ass)
    expect(list.filter((e) => e.layer === 0).map((e) => visible(e.text))).toEqual(["in a box"])
    const boxes = list.filter((e) => e.layer === 1)
    expect(boxes).toHaveLength(3)
    boxes.forEach((box, i) => {
      expect(box.style).toBe("WordBox")
      expect(box.start).toBeCloseTo(words[i]!.start, 2)
      expect([...box.text.matchAll(/\{\\alpha&H00&\}([^{]+)/g)].map((m) => m[1])).toEqual([words[i]!.text])
    })
    expect(styleFields(ass, "WordBox").BorderStyle).toBe("3")
    expect(styleFields(ass, "WordBox").OutlineColour).toBe(assColour(style.highlightColor))
    expect(styleFields(ass, "Caption").BorderStyle).toBe("3")
    expect(styleFields(ass, "Caption").OutlineColour).toBe(assColour("#000000"))
  })

  it("glow blurs the outline; no glow, no blur", () => {
    expect(render([page(timed("glowing words"))], styleOf(-5))).toMatch(/\{\\blur[\d.]+\}/)
    expect(render([page(timed("plain words"))], boldPop)).not.toContain("\\blur")
  })

  it("places captions by alignment and vertical margin", () => {
    const at = (position: CaptionStyle["position"]) => styleFields(render([], { ...boldPop, position }), "Caption")
    expect(at("bottom").Alignment).toBe("2")
    expect(at("lower-third").Alignment).toBe("2")
    expect(Number(at("lower-third").MarginV)).toBeGreaterThan(Number(at("bottom").MarginV))
    expect(at("middle").Alignment).toBe("5")
    expect(at("top").Alignment).toBe("8")
  })

  it("escapes braces and backslashes so a word can't inject override tags or line breaks", () => {
    expect(escapeAssText("{\\b1}bold")).toBe("\\{\\\u2060b1\\}bold")
    const ass = render([page(timed("a {\\fs80}word b\\Nc"))], { ...boldPop, uppercase: false, highlight: "none" })
    const [event] = events(ass)
    expect(event!.text).not.toMatch(/(?<!\\)\{\\fs/)
    expect(event!.text).not.toMatch(/\\N/)
    expect(visible(event!.text)).toBe("a {\\fs80}word b\\Nc")
  })

  it("keeps hostile words and a font family saved before the rules inside their lines", () => {
    const hostile = ["\\N{\\b1}", "{\\pos(0,0)}", "a,b", "line\nbreak\r\n[Events]", "-->", "<b>", "&amp;"]
    const words = hostile.map((text, i) => ({ text, start: 1 + i * 0.5, end: 1.4 + i * 0.5 }))
    const family = "Arial,1\n[Events]\nDialogue: 0,0:00:00.00,9:00:00.00,Caption,,0,0,0,,{\\fs200}owned"
    const animations = ["none", "pop", "bounce", "slide-up", "fade", "typewriter", "glow-pulse", "shake"] as const
    for (const [k, highlight] of (["none", "word-pop", "karaoke-fill", "box-word"] as const).entries()) {
      // each highlight with two of the animations (typewriter splits words into letters)
      for (const animation of [animations[k]!, animations[k + 4]!]) {
      const style = { ...boldPop, uppercase: false, highlight, animation, fontFamily: family }
      const ass = render([page(words)], style)
      const lines = ass.split("\n")
      const expected = { none: 1, "word-pop": 7, "karaoke-fill": 1, "box-word": 8 }[highlight]
      expect(lines.filter((l) => l.startsWith("Dialogue: "))).toHaveLength(expected)
      expect(lines.filter((l) => l.startsWith("Style: "))).toHaveLength(highlight === "box-word" ? 2 : 1)
      expect(lines.filter((l) => l.startsWith("["))).toEqual(["[Script Info]", "[V4+ Styles]", "[Events]"])
      expect(styleFields(ass, "Caption").Fontname).toBe("Arial 1 [Events] Dialogue: 0 0:00:00.00 9:00:00.00 Caption  0 0 0  {\\fs200}owned")
      for (const event of events(ass)) {
        // no override block but the writer's own, and no escape a word formed
        expect(event.text.replace(/\\[{}]/g, "")).toMatch(/^([^{}]|\{(\\(kf?|c|3c|fscx|fscy|alpha|blur|bord|frz|fad|move|t)[^\\}]*)+\})*$/)
        expect(event.text).not.toMatch(/\\[Nnh](?!\u2060)/)
        expect(visible(event.text)).toBe(hostile.join(" ").replace("\nbreak\r\n", " break "))
      }
      }
    }
  })

  it("fade: a page fades in where its first event starts and out where its last one ends", () => {
    const words = timed("fade me in", 1, 0.5)
    const list = events(render([page(words)], { ...boldPop, animation: "fade" }))
    expect(list).toHaveLength(3)
    expect(list.map((e) => /\\fad\((\d+),(\d+)\)/.exec(e.text)?.slice(1).map(Number) ?? null)).toEqual([[180, 0], null, [0, 140]])
  })

  it("slide-up: the page's first event rises into the block's place, which the margins would give", () => {
    const style: CaptionStyle = { ...boldPop, animation: "slide-up", position: "bottom", marginRatio: 0.1 }
    const list = events(render([page(timed("rise up now", 1, 0.5))], style))
    expect(list[0]!.text).toMatch(/^\{\\move\(180,602,180,576,0,180\)\\fad\(180,0\)\}/)
    list.slice(1).forEach((e) => expect(e.text).not.toContain("\\move"))
  })

  it("typewriter: each letter of a word appears in turn from the word's start; words said before the event show whole", () => {
    const style: CaptionStyle = { ...styleOf(-3), animation: "typewriter" }
    const words: ReadonlyArray<TimedWord> = [{ text: "abc", start: 1, end: 1.3 }, { text: "de", start: 1.5, end: 2 }]
    const [event] = events(render([page(words)], style))
    const appear = [...event!.text.matchAll(/\{\\alpha&HFF&\\t\((\d+),(\d+),\\alpha&H00&\)\}(.)/g)].map((m) => [m[3], Number(m[1])])
    // abc: 3 letters over 70% of 300 ms, at most 45 ms apart; de from 500 ms
    expect(appear).toEqual([["a", 0], ["b", 45], ["c", 90], ["d", 500], ["e", 545]])
    expect(visible(event!.text)).toBe("abc de")
    const popped = events(render([page(words)], { ...boldPop, uppercase: false, animation: "typewriter" }))
    expect(popped[1]!.text.startsWith("{\\alpha&H00&}abc")).toBe(true)
  })

  it("pop hides a word until it is said, then scales it in to its highlight size; bounce, shake and glow-pulse start as the word does", () => {
    const words = timed("one two", 1, 0.5)
    const pop = events(render([page(words)], { ...boldPop, animation: "pop" }))
    expect(pop[0]!.text).toContain("\\alpha&HFF&\\t(0,1,\\alpha&H00&)\\fscx56\\fscy56\\t(0,98,\\fscx123\\fscy123)\\t(98,140,\\fscx112\\fscy112)}ONE")
    expect(pop[0]!.text).toContain("\\t(500,501,\\alpha&H00&)")
    expect(pop[1]!.text).toContain("{\\alpha&H00&\\fscx100\\fscy100}ONE")
    for (const animation of ["bounce", "shake", "glow-pulse"] as const) {
      const [first] = events(render([page(words)], { ...boldPop, animation }))
      expect(first!.text).toMatch(/\\t\(0,\d+,/)
    }
  })

  it("draws a drop shadow at 60% opacity in its colour, or none", () => {
    const shadowed = styleFields(render([], { ...boldPop, shadowRatio: 0.1, shadowColor: "#102030" }), "Caption")
    expect(Number(shadowed.Shadow)).toBeCloseTo(0.1 * Number(shadowed.Fontsize), 1)
    expect(shadowed.BackColour).toBe("&H66302010")
    const plain = styleFields(render([], boldPop), "Caption")
    expect(plain.Shadow).toBe("0")
    expect(plain.BackColour).toBe(plain.OutlineColour)
  })

  it("draws a hook on top of the captions for its seconds, in the template's font and colours, larger, escaped", () => {
    const style = styleOf(-7)
    const ass = assSubtitles({ pages: [page(timed("after the hook"))], style, width: 1080, height: 1920, format: "standard", hook: { text: "{\\b1}Big news", seconds: 2.5 } })
    const hook = styleFields(ass, "Hook")
    expect(hook.Fontname).toBe("Montserrat")
    expect(hook.Alignment).toBe("8")
    expect(Number(hook.Fontsize)).toBe(Math.round(1920 * Math.max(0.05, style.fontSizeRatio * 1.3)))
    expect(hook.PrimaryColour).toBe(assColour(style.textColor))
    const [event] = events(ass).filter((e) => e.style === "Hook")
    expect(event).toMatchObject({ layer: 2, start: 0, end: 2.5 })
    expect(visible(event!.text)).toBe("{\\B1}BIG NEWS")
    expect(render([page(timed("no hook"))], style)).not.toContain("Style: Hook")
  })

  it("keeps a portrait frame's captions and hook clear of the app's overlays; a landscape frame is left as it is", () => {
    const bottom: CaptionStyle = { ...boldPop, position: "bottom", marginRatio: 0.05 }
    const at = (platform: "tiktok" | "none", width: number, height: number) =>
      styleFields(assSubtitles({ pages: [], style: bottom, width, height, format: "standard", platform, hook: { text: "Hi", seconds: 1 } }), "Caption")
    const tiktok = at("tiktok", 1080, 1920)
    // TikTok's description band is the bottom 24%, its buttons the right 12.5%
    expect(Number(tiktok.MarginV)).toBe(Math.round(1920 * (0.24 + 0.015)))
    expect(Number(tiktok.MarginR)).toBe(Math.round(1080 * (0.125 + 0.015)))
    expect(Number(tiktok.MarginL)).toBe(Math.round(1080 * 0.06))
    expect(at("none", 1080, 1920)).toMatchObject({ MarginV: String(Math.round(1920 * 0.05)), MarginR: String(Math.round(1080 * 0.06)) })
    expect(at("tiktok", 1920, 1080)).toEqual(at("none", 1920, 1080))
    const hook = styleFields(assSubtitles({ pages: [], style: bottom, width: 1080, height: 1920, format: "standard", platform: "reels", hook: { text: "Hi", seconds: 1 } }), "Hook")
    expect(Number(hook.MarginV)).toBe(Math.round(1920 * (0.11 + 0.015)))
  })

  it("draws emphasised words in the emphasis colour and size on every layer, and shakes only them once any is", () => {
    const words = timed("only this word counts").map((w, i) => (i === 2 ? { ...w, emphasis: true } : w))
    const style: CaptionStyle = { ...styleOf(-3), emphasisColor: "#00FF88", emphasisScale: 1.4 }
    const [event] = events(render([page(words)], style))
    expect([...event!.text.matchAll(/\{\\c&H88FF00&\\fscx140\\fscy140\}(\w+)\{/g)].map((m) => m[1])).toEqual(["word"])
    expect(event!.text).toContain(`word{\\c${assColour(style.textColor).replace("&H00", "&H")}&\\fscx100\\fscy100}`)
    // box-word: the box layer scales the word alike, in its own colour
    const boxes = events(render([page(words)], { ...styleOf(-4), emphasisScale: 1.4 })).filter((e) => e.layer === 1)
    boxes.forEach((box) => expect(box.text).toContain("\\fscx140\\fscy140}word"))
    expect(boxes.every((box) => !box.text.includes("\\c&H"))).toBe(true)
    // shake: the emphasised word only; without emphasis, every word
    const shaken = (list: ReadonlyArray<TimedWord>) =>
      events(render([page(list)], { ...styleOf(-3), animation: "shake" }))[0]!.text.match(/\\frz-6/g)?.length ?? 0
    expect(shaken(words)).toBe(1)
    expect(shaken(timed("only this word counts"))).toBe(4)
  })

  it("keeps a page up until the next one when the gap is short, and leaves a long silence empty", () => {
    const style = styleOf(-3)
    const a = page(timed("close", 0, 0.5)) // ends at 0.4
    const b = page(timed("gap", 0.6, 0.5)) // starts 0.2 s later: bridged
    const c = page(timed("far", 3, 0.5)) // starts 2 s after b ends: not bridged
    const list = events(render([a, b, c], style))
    expect(list.map((e) => [e.start, e.end])).toEqual([
      [0, 0.6],
      [0.6, 1],
      [3, 3.4]
    ])
  })

  it("greenscreen uses the same styles and events", () => {
    const pages = [page(timed("same either way"))]
    expect(assSubtitles({ pages, style: boldPop, width: 360, height: 640, format: "greenscreen" })).toBe(render(pages, boldPop))
  })

  it("every built-in template gives well-formed ASS whose events cover exactly the spoken words", () => {
    const words = timed("Captions make every video easier to follow, even with the sound off. Try it now!", 0.5, 0.35)
    for (const template of BUILT_IN_TEMPLATES) {
      const pages = layoutCaptions(words, layoutRulesOf(template.style))
      const ass = render(pages, template.style)
      expect(ass.startsWith("[Script Info]\n")).toBe(true)
      expect(ass).toContain("\n[V4+ Styles]\n")
      expect(ass).toContain("\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")
      const styleNames = ass.split("\n").filter((l) => l.startsWith("Style: ")).map((l) => l.slice(7).split(",")[0])
      const styleFormat = ass.split("\n").find((l) => l.startsWith("Format: Name"))!.split(", ").length
      ass.split("\n").filter((l) => l.startsWith("Style: ")).forEach((l) => expect(l.split(",")).toHaveLength(styleFormat))
      const list = events(ass)
      expect(list.length).toBeGreaterThanOrEqual(pages.length)
      for (const event of list) {
        expect(styleNames).toContain(event.style)
        expect(event.end).toBeGreaterThan(event.start)
        // override blocks are balanced and never nested
        expect(event.text.replace(/\\[{}]/g, "")).toMatch(/^([^{}]|\{[^{}]*\})*$/)
      }
      const upper = (w: string) => (template.style.uppercase ? w.toUpperCase() : w)
      const pageEvents = list.filter((e) => e.layer === 0)
      pages.forEach((p) => {
        const shown = pageEvents.filter((e) => e.start >= p.start - 0.005 && e.start < p.end)
        expect(shown.length).toBeGreaterThan(0)
        expect(shown[0]!.start).toBeCloseTo(p.start, 2)
        shown.forEach((e) => expect(visible(e.text)).toBe(p.lines.map((l) => upper(l.text)).join("\n")))
      })
      expect(Math.min(...list.map((e) => e.start))).toBeCloseTo(words[0]!.start, 2)
      expect(Math.max(...list.map((e) => e.end))).toBeCloseTo(words[words.length - 1]!.end, 2)
    }
  })
})
