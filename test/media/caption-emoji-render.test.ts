// Emoji in colour in an export: beside the line of its word (right of the line's letters, inside its
// rows), from the moment the word is spoken (rising into place) to its page leaving, in the same encode
// as the captions; a caption video (burnCaptions) and a generated one (the timeline renderer) alike.
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { assSubtitles, emojiSpots, type TextMeasure } from "../../adapters/media/ass-subtitles.ts"
import { measureCaptionText } from "../../adapters/media/caption-text-measure.ts"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { FfmpegTimelineRendererLive } from "../../adapters/media/ffmpeg-timeline-renderer.ts"
import { BUILT_IN_TEMPLATES, type CaptionStyle, layoutCaptions, layoutRulesOf, type TimedWord } from "../../domain/captions.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import { TimelineRenderer } from "../../domain/ports/timeline-renderer.ts"
import { type Frame, readFrame } from "../support/clips.ts"

const run = promisify(execFile)
const W = 360
const H = 640
// Bold pop and Editorial serif, without the highlight colour: every saturated pixel is an emoji's.
const STYLES: ReadonlyArray<readonly [string, CaptionStyle]> = [-1, -12].map((id) => {
  const template = BUILT_IN_TEMPLATES.find((t) => t.id === id)!
  return [template.name, { ...template.style, highlight: "none", textColor: "#FFFFFF", outlineColor: "#000000", maxCharsPerLine: 18 }] as const
})
/** Two pages of two lines: "fire" (🔥) is spoken at 0.9 s on the first one's first line, "rocket" (🚀) at 2.9 s on the second one's second line. */
const WORDS: ReadonlyArray<TimedWord> = [
  ["Tonight", 0.2], ["the", 0.5], ["fire", 0.9, "🔥"], ["spread", 1.2], ["fast.", 1.5], ["Then", 2.0], ["came", 2.2], ["the", 2.4], ["big", 2.6], ["rocket.", 2.9, "🚀"]
].map(([text, start, emoji]) => ({ text: String(text), start: Number(start), end: Number(start) + 0.25, ...(emoji === undefined ? {} : { emoji: String(emoji) }) }))

let dir = ""
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "caption-emoji-"))
})
afterAll(() => (process.env.KEEP === "1" ? undefined : rm(dir, { recursive: true, force: true })))

/** Colourful pixels: far from grey (the captions are white and black, the picture mid grey). */
const saturated = (frame: Frame, i: number): boolean => {
  const [r, g, b] = [frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!]
  return Math.max(r, g, b) - Math.min(r, g, b) > 90
}

interface Box {
  readonly left: number
  readonly top: number
  readonly right: number
  readonly bottom: number
  readonly count: number
}

/** The box round the pixels `keep` picks (an index into a frame's bytes), in `rows`. */
const boxOf = (keep: (i: number) => boolean, rows: readonly [number, number] = [0, H]): Box => {
  let [left, top, right, bottom, count] = [W, H, -1, -1, 0]
  for (let y = rows[0]; y < rows[1]; y++) {
    for (let x = 0; x < W; x++) {
      if (!keep((y * W + x) * 3)) continue
      count++
      left = Math.min(left, x)
      right = Math.max(right, x)
      top = Math.min(top, y)
      bottom = Math.max(bottom, y)
    }
  }
  return { left, top, right, bottom, count }
}

/** Bright, grey pixels: the captions' letters. */
const letter = (frame: Frame) => (i: number): boolean => frame.rgb[i]! > 200 && !saturated(frame, i)

/** The rows holding letters (outside the emoji's columns), as bands of consecutive rows. */
const letterBands = (frame: Frame, emoji: Box): ReadonlyArray<readonly [number, number]> => {
  const bands: Array<readonly [number, number]> = []
  const isLetter = letter(frame)
  for (let y = 0; y < H; y++) {
    let lit = false
    for (let x = 0; x < W && !lit; x++) lit = isLetter((y * W + x) * 3) && !inColumns(emoji, (y * W + x) * 3)
    const last = bands.at(-1)
    if (lit && last !== undefined && last[1] >= y - 3) bands[bands.length - 1] = [last[0], y + 1]
    else if (lit) bands.push([y, y + 1])
  }
  return bands
}

const source = Effect.promise(async () => {
  const path = join(dir, "grey.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", `color=c=0x808080:s=${W}x${H}:r=30:d=4`, "-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono",
    "-t", "4", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", path
  ])
  return path
})

/** Whether pixel `i` lies in a box's columns. */
const inColumns = (box: Box, i: number): boolean => {
  const x = (i / 3) % W
  return x >= box.left - 1 && x <= box.right + 1
}

/** The emoji's box and the letters of the line it sits beside (the emoji's own white parts left out). */
const emojiBesideLine = (frame: Frame) => {
  const emoji = boxOf((i) => saturated(frame, i))
  const isLetter = letter(frame)
  // The line it belongs with: the band of letters its middle row is nearest to.
  const middle = (emoji.top + emoji.bottom) / 2
  const off = ([top, bottom]: readonly [number, number]) => Math.max(0, top - middle, middle - bottom)
  const band = [...letterBands(frame, emoji)].sort((a, b) => off(a) - off(b))[0]
  return { emoji, band, letters: band === undefined ? null : boxOf((i) => isLetter(i) && !inColumns(emoji, i), band) }
}

const checkBeside = (frame: Frame) => {
  const { emoji, band, letters } = emojiBesideLine(frame)
  expect(emoji.count).toBeGreaterThan(50)
  expect(band).toBeDefined()
  // Right of its line's letters (none further right) and close to them, inside the picture.
  expect(emoji.left).toBeGreaterThan(letters!.right)
  expect(emoji.left - letters!.right).toBeLessThan(40)
  expect(emoji.right).toBeLessThan(W)
  // Its middle within its line's rows.
  const middle = (emoji.top + emoji.bottom) / 2
  expect(middle).toBeGreaterThan(band![0])
  expect(middle).toBeLessThan(band![1])
  return { emoji, band: band! }
}

/** The captioned picture at `t`. */
const frameAt = (path: string, t: number) => Effect.promise(() => readFrame(path, t, W, H))
const colourful = (frame: Frame): Box => boxOf((i) => saturated(frame, i))

/** What both exports must show: all 4 s of frames; nothing before "fire"; 🔥 rising beside its line; 🚀 beside the second page's line of "rocket". */
const checkExport = (output: string, pages: ReturnType<typeof layoutCaptions>) =>
  Effect.gen(function*() {
    // The overlay's picture sequence neither lengthens nor shortens the video.
    const { stdout } = yield* Effect.promise(() => run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", output]))
    expect(Number(stdout.trim())).toBe(120)
    expect(colourful(yield* frameAt(output, 0.7)).count).toBe(0)
    const rising = colourful(yield* frameAt(output, 0.9 + 1 / 30))
    const fire = checkBeside(yield* frameAt(output, 1.6))
    // On its first frame it is lower than when settled: rising into place.
    expect(rising.count).toBeGreaterThan(0)
    expect(rising.top).toBeGreaterThan(fire.emoji.top)
    // "fire" is on the page's first line, the first band of letters.
    expect(pages[0]!.lines.findIndex((line) => line.text.includes("fire"))).toBe(0)
    expect(fire.band).toEqual(letterBands(yield* frameAt(output, 1.6), fire.emoji)[0])
    // "rocket" is on the second page's last line: the last band of letters.
    const later = yield* frameAt(output, 3.05)
    expect(pages[1]!.lines.map((line) => line.text)).toEqual(["Then came the big", "rocket."])
    const rocket = checkBeside(later)
    expect(rocket.band).toEqual(letterBands(later, rocket.emoji).at(-1))
  })

layer(Layer.mergeAll(FfmpegEngineLive, FfmpegTimelineRendererLive))("emoji in the export", (it) => {
  describe.each(STYLES)("%s", (name, style) => {
    it.effect("a caption video's export draws each line's emoji in colour beside it, from its word on, rising into place", () =>
      Effect.gen(function*() {
        const input = yield* source
        const output = join(dir, `${name.replaceAll(" ", "-")}.mp4`)
        const pages = layoutCaptions(WORDS, layoutRulesOf(style))
        yield* (yield* MediaEngine).burnCaptions({ input, output, captions: { pages, style }, format: "standard", frameRate: 30, width: W, height: H })
        yield* checkExport(output, pages)
      }), 60_000)
  })

  it.effect("greenscreen at 60 fps draws them over the green, rising over the first frames at that rate", () =>
    Effect.gen(function*() {
      const [, style] = STYLES[0]!
      const pages = layoutCaptions(WORDS, layoutRulesOf(style))
      const output = join(dir, "greenscreen-60.mp4")
      yield* (yield* MediaEngine).burnCaptions({ input: yield* source, output, captions: { pages, style }, format: "greenscreen", frameRate: 60, width: W, height: H })
      const frame = yield* frameAt(output, 1.6)
      // Green (and the captions' edges over it) is saturated too: the emoji are the saturated pixels that are not greenish.
      const notGreen = (f: Frame, i: number) => saturated(f, i) && !(f.rgb[i + 1]! > f.rgb[i]! + 30 && f.rgb[i + 1]! > f.rgb[i + 2]! + 30)
      const emoji = boxOf((i) => notGreen(frame, i))
      expect(emoji.count).toBeGreaterThan(50)
      expect(emoji.left).toBeGreaterThan(W / 2)
      const rising = yield* frameAt(output, 0.9 + 1 / 60)
      const first = boxOf((i) => notGreen(rising, i))
      expect(first.top).toBeGreaterThan(emoji.top)
    }), 60_000)

  it.effect("a generated video's render draws them too", () =>
    Effect.gen(function*() {
      const style = STYLES[0]![1]
      const pages = layoutCaptions(WORDS, layoutRulesOf(style))
      const output = join(dir, "generated.mp4")
      yield* (yield* TimelineRenderer).render({
        timeline: {
          width: W,
          height: H,
          frameRate: 30,
          format: "standard",
          background: "#000000",
          scenes: [{ durationSeconds: 4, visual: { _tag: "Colour", hex: "#808080" }, overlays: [] }],
          narration: null,
          captions: { pages, style },
          music: null
        },
        output,
        workDir: join(dir, "generated")
      })
      yield* checkExport(output, pages)
    }), 60_000)

  it.effect("places the spots from the words' emoji, and none without a measure", () =>
    Effect.sync(() => {
      const style = STYLES[0]![1]
      const pages = layoutCaptions(WORDS, layoutRulesOf(style))
      const spots = emojiSpots({ pages, style, width: W, height: H, format: "standard", measure: measureCaptionText })
      expect(spots.map((s) => [s.emoji, s.start])).toEqual([["🔥", 0.9], ["🚀", 2.9]])
      expect(emojiSpots({ pages, style, width: W, height: H, format: "standard" })).toEqual([])
    }))

  it.effect("keeps the emoji clear of a spoken word drawn larger: the room grows by half the widest word's growth", () =>
    Effect.sync(() => {
      const measure: TextMeasure = (text, font) => text.length * font.size * 0.5
      const roomOf = (style: CaptionStyle) => {
        const request = { pages: layoutCaptions(WORDS, layoutRulesOf(style)), style, width: W, height: H, format: "standard" as const, measure }
        return Number(/m 0 0 l (\d+) 0/.exec(assSubtitles(request))?.[1])
      }
      const still = STYLES[0]![1]
      const fontSize = Math.round(still.fontSizeRatio * H)
      // The first line, "Tonight the fire", has its emoji; its widest word is "TONIGHT", 7 letters.
      const widest = 7 * fontSize * 0.5
      expect(roomOf({ ...still, highlight: "word-pop" }) - roomOf(still)).toBe(Math.round((0.12 * widest) / 2))
      expect(roomOf({ ...still, animation: "bounce" }) - roomOf(still)).toBe(Math.round((0.3 * widest) / 2))
    }))

  it.effect("puts a too-wide line's emoji above the block (first line) or below it (last line), keeping no room in the line", () =>
    Effect.sync(() => {
      const style = { ...STYLES[0]![1], maxCharsPerLine: 40 }
      const fontSize = Math.round(style.fontSizeRatio * H)
      // Each letter 0.55 font sizes wide: the long lines leave no room for an emoji between the margins.
      const measure: TextMeasure = (text, font) => text.length * font.size * 0.55
      const long = "Everybody watched the launch"
      const page = (emojiLine: 0 | 1) => {
        const words = [...long.split(" "), ...long.split(" ")].map((text, i) => ({ text, start: i * 0.3, end: i * 0.3 + 0.25, ...(i === emojiLine * 4 + 3 ? { emoji: "🚀" } : {}) }))
        return layoutCaptions(words, layoutRulesOf(style), [0, 4])
      }
      for (const line of [0, 1] as const) {
        const request = { pages: page(line), style, width: W, height: H, format: "standard" as const, measure }
        expect(request.pages.map((p) => p.lines.length)).toEqual([2])
        const [spot] = emojiSpots(request)
        expect(Math.abs(spot!.x + spot!.size / 2 - W / 2)).toBeLessThanOrEqual(1)
        // The block (two lines, centred) spans H/2 - fontSize to H/2 + fontSize.
        if (line === 0) expect(spot!.y + spot!.size).toBeLessThanOrEqual(H / 2 - fontSize)
        else expect(spot!.y).toBeGreaterThanOrEqual(H / 2 + fontSize)
        expect(assSubtitles(request)).not.toContain("\\p1")
        // Not into an app's band: a block at the bottom edge on TikTok has its last line's emoji nowhere.
        if (line === 1) {
          const bottom = { ...request, style: { ...style, position: "bottom" as const }, platform: "tiktok" as const }
          expect(emojiSpots({ ...bottom, platform: "none" })).toHaveLength(1)
          expect(emojiSpots(bottom)).toEqual([])
        }
        // With room (shorter letters), the same line keeps it.
        expect(assSubtitles({ ...request, measure: (text, font) => text.length * font.size * 0.3 })).toContain("\\p1")
      }
    }))
})
