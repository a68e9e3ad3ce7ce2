// Every built-in caption template burned by libass with the shipped fonts, over a flat background, as
// raw RGB frames (no encoder in between): the captions sit in the template's band in its colours, and
// an animated template's frames differ between two moments of one word while a still one's do not.
// The hook shows at the top for its seconds only, and nothing is drawn inside an app's overlays.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { assFilter } from "../../adapters/media/caption-fonts.ts"
import { assSubtitles } from "../../adapters/media/ass-subtitles.ts"
import type { CaptionHook } from "../../domain/caption-hook.ts"
import { BUILT_IN_TEMPLATES, type CaptionStyle, layoutCaptions, layoutRulesOf, placementOf, type TimedWord } from "../../domain/captions.ts"
import { type Platform, SAFE_ZONES } from "../../domain/safe-zones.ts"
import { bandDifference, type Frame } from "../support/clips.ts"

const run = promisify(execFile)

const W = 360
const H = 640
const FPS = 25
const BACKGROUND = [0x4a, 0x6b, 0x8a] as const
const WORDS: ReadonlyArray<TimedWord> = "Captions make every video easier to follow".split(" ").map((text, i) => ({
  text,
  start: 0.2 + i * 0.4,
  end: 0.55 + i * 0.4
}))
/** Early and late inside the first word (0.2-0.55 s), and inside the second one. */
const EARLY = 6
const LATE = 12
const SECOND_WORD = 20

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "template-render-"))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

/** The frames `indexes` (at FPS) of the template's captions over the flat background. */
const framesOf = async (
  name: string,
  style: CaptionStyle,
  indexes: ReadonlyArray<number>,
  { words = WORDS, ...extras }: { readonly hook?: CaptionHook; readonly platform?: Platform; readonly words?: ReadonlyArray<TimedWord> } = {}
): Promise<ReadonlyArray<Frame>> => {
  const path = join(dir, `${name}.ass`)
  await writeFile(path, assSubtitles({ pages: layoutCaptions(words, layoutRulesOf(style)), style, width: W, height: H, format: "standard", ...extras }))
  const colour = `0x${BACKGROUND.map((c) => c.toString(16).padStart(2, "0")).join("")}`
  const select = indexes.map((n) => `eq(n\\,${n})`).join("+")
  const { stdout } = await run(
    "ffmpeg",
    [
      "-nostdin", "-v", "error", "-f", "lavfi", "-i", `color=${colour}:s=${W}x${H}:r=${FPS}:d=3`,
      "-vf", `${assFilter(path)},select='${select}'`, "-fps_mode", "passthrough",
      "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"
    ],
    { encoding: "buffer", maxBuffer: indexes.length * W * H * 3 + 1024 }
  )
  const size = W * H * 3
  expect(stdout.length).toBe(indexes.length * size)
  return indexes.map((_, i) => ({ width: W, height: H, rgb: stdout.subarray(i * size, (i + 1) * size) }))
}

const rgbOf = (hex: string): ReadonlyArray<number> => [1, 3, 5].map((k) => parseInt(hex.slice(k, k + 2), 16))

const distance = (frame: Frame, i: number, rgb: ReadonlyArray<number>): number =>
  Math.max(...[0, 1, 2].map((c) => Math.abs(frame.rgb[i + c]! - rgb[c]!)))

/** Pixels within a few levels of `hex`. */
const pixelsOf = (frame: Frame, hex: string): number => {
  const rgb = rgbOf(hex)
  let n = 0
  for (let i = 0; i < frame.rgb.length; i += 3) if (distance(frame, i, rgb) <= 40) n++
  return n
}

/** Rows of the pixels that are not background. */
const captionRows = (frame: Frame): ReadonlyArray<number> => {
  const rows: Array<number> = []
  for (let i = 0; i < frame.rgb.length; i += 3) if (distance(frame, i, BACKGROUND) > 60) rows.push(Math.floor(i / 3 / W))
  return rows
}

/** Where the template's block may be: the third of the picture it is placed in, with room for its lines. */
const bandOf = (style: CaptionStyle): { readonly top: number; readonly bottom: number } => {
  const { edge } = placementOf(style)
  return edge === "top" ? { top: 0, bottom: H * 0.45 } : edge === "centre" ? { top: H * 0.3, bottom: H * 0.7 } : { top: H * 0.5, bottom: H }
}

const moves = (style: CaptionStyle): boolean => (style.animation ?? "none") !== "none" || style.highlight === "karaoke-fill"

describe("built-in caption templates, burned by libass", () => {
  it("are at least 24, in at least 6 font families, with every animation", () => {
    expect(BUILT_IN_TEMPLATES.length).toBeGreaterThanOrEqual(24)
    expect(new Set(BUILT_IN_TEMPLATES.map((t) => t.style.fontFamily)).size).toBeGreaterThanOrEqual(6)
    expect(new Set(BUILT_IN_TEMPLATES.map((t) => t.style.animation ?? "none"))).toEqual(
      new Set(["none", "pop", "bounce", "slide-up", "fade", "typewriter", "glow-pulse", "shake"])
    )
    expect(new Set(BUILT_IN_TEMPLATES.map((t) => t.style.highlight))).toEqual(new Set(["word-pop", "karaoke-fill", "box-word", "none"]))
    expect(new Set(BUILT_IN_TEMPLATES.map((t) => t.name)).size).toBe(BUILT_IN_TEMPLATES.length)
  })

  for (const template of BUILT_IN_TEMPLATES) {
    const { style } = template
    it(`${template.id} ${template.name}: in its band and colours; ${moves(style) ? "moves" : "holds still"} within a word`, async () => {
      const [early, late, second] = await framesOf(`template${-template.id}`, style, [EARLY, LATE, SECOND_WORD])
      const rows = captionRows(second!)
      expect(rows.length).toBeGreaterThan(300)
      const band = bandOf(style)
      expect(rows.filter((y) => y >= band.top && y < band.bottom).length / rows.length).toBeGreaterThan(0.97)

      expect(pixelsOf(second!, style.textColor)).toBeGreaterThan(20)
      if (style.highlight !== "none") expect(pixelsOf(second!, style.highlightColor)).toBeGreaterThan(20)
      if (style.boxColor !== null) expect(pixelsOf(second!, style.boxColor)).toBeGreaterThan(200)

      const changed = bandDifference(early!, late!, { top: 0, bottom: H }, 24)
      if (moves(style)) expect(changed).toBeGreaterThan(0.001)
      else expect(changed).toBe(0)
    })
  }
})

/** Pixels that are not background inside a rectangle given in fractions of the frame. */
const inkInside = (frame: Frame, zone: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }): number => {
  let n = 0
  for (let y = Math.floor(zone.y * H); y < Math.ceil((zone.y + zone.height) * H); y++) {
    for (let x = Math.floor(zone.x * W); x < Math.ceil((zone.x + zone.width) * W); x++) {
      if (distance(frame, (y * W + x) * 3, BACKGROUND) > 60) n++
    }
  }
  return n
}

const styleOf = (id: number): CaptionStyle => BUILT_IN_TEMPLATES.find((t) => t.id === id)!.style
const HOOK: CaptionHook = { text: "Three things nobody tells you about harbours", seconds: 2 }

describe("the hook and the apps' overlays", () => {
  it("shows the hook at the top, wrapped, in the template's text colour, until its seconds are up", async () => {
    const style = styleOf(-7)
    const [during, after] = await framesOf("hook", style, [FPS, Math.round(FPS * 2.4)], { hook: HOOK })
    const top = { x: 0, y: 0, width: 1, height: 0.3 }
    expect(inkInside(during!, top)).toBeGreaterThan(1500)
    expect(pixelsOf(during!, style.textColor)).toBeGreaterThan(500)
    expect(inkInside(after!, top)).toBe(0)
    // two lines at least: the title does not fit one line of 360 px
    const rows = new Set(captionRows(during!).filter((y) => y < H * 0.3))
    expect(Math.max(...rows) - Math.min(...rows)).toBeGreaterThan(style.fontSizeRatio * 1.3 * H * 1.5)
  })

  for (const platform of ["tiktok", "reels", "shorts"] as const) {
    it(`${platform}: captions and hook stay out of every overlay, which they would enter without it`, async () => {
      // Bottom subtitles sit in the bottom overlay by default; a long word in the middle, centred, reaches
      // the side buttons (a word never wraps); the hook is over both.
      const long: ReadonlyArray<TimedWord> = [{ text: "Unbelievable", start: 0.2, end: 2.5 }]
      const cases = [["bottom", styleOf(-6), WORDS], ["middle", { ...styleOf(-1), fontSizeRatio: 0.055 }, long]] as const
      for (const [name, style, words] of cases) {
        const indexes = [FPS, Math.round(FPS * 1.6)]
        const clear = await framesOf(`${platform}-${name}`, style, indexes, { platform, hook: HOOK, words })
        const plain = await framesOf(`none-${name}`, style, indexes, { hook: HOOK, words })
        for (const zone of SAFE_ZONES[platform]) clear.forEach((frame) => expect(inkInside(frame, zone), zone.label).toBe(0))
        // without the platform: the subtitles sit in the bottom overlay, the wide lines reach the side buttons
        const [, side, bottom] = SAFE_ZONES[platform]
        const entered = plain.reduce((m, frame) => m + inkInside(frame, name === "bottom" ? bottom! : side!), 0)
        expect(entered).toBeGreaterThan(0)
      }
    })
  }
})

describe("emphasis", () => {
  it("puts the emphasis colour on the chosen word only", async () => {
    const style: CaptionStyle = { ...styleOf(-3), position: "middle", linesPerPage: 2, maxCharsPerLine: 22, emphasisColor: "#00FF88" }
    // Two lines: "Captions make every" / "video easier to follow"; "easier" is emphasised.
    const flagged = WORDS.map((w) => (w.text === "easier" ? { ...w, emphasis: true } : w))
    const pages = layoutCaptions(flagged, layoutRulesOf(style))
    expect(pages[0]!.lines.map((l) => l.text)).toEqual(["Captions make every", "video easier to follow"])
    const at = Math.round(FPS * 2.7)
    const [marked] = await framesOf("emphasis", style, [at], { words: flagged })
    const [plain] = await framesOf("no-emphasis", style, [at])
    expect(pixelsOf(plain!, "#00FF88")).toBe(0)
    expect(pixelsOf(marked!, "#00FF88")).toBeGreaterThan(40)
    // every emphasis-coloured pixel is on the second line, below every first-line pixel
    const rowsOf = (frame: Frame, hex: string) => {
      const rgb = rgbOf(hex)
      const rows: Array<number> = []
      for (let i = 0; i < frame.rgb.length; i += 3) if (distance(frame, i, rgb) <= 40) rows.push(Math.floor(i / 3 / W))
      return rows
    }
    const green = rowsOf(marked!, "#00FF88")
    const text = rowsOf(plain!, style.textColor)
    const middle = (Math.min(...text) + Math.max(...text)) / 2
    expect(Math.min(...green)).toBeGreaterThan(middle)
  })
})
