import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, layer } from "@effect/vitest"
import type { SKRSContext2D } from "@napi-rs/canvas"
import { Effect } from "effect"
import { playFrameSequence } from "../../adapters/animation/frame-sequence.ts"
import { FfmpegTimelineRendererLive } from "../../adapters/media/ffmpeg-timeline-renderer.ts"
import { WorkFailed } from "../../domain/errors.ts"
import type { AnimatedFrames } from "../../domain/ports/animated-frames.ts"
import { TimelineRenderer } from "../../domain/ports/timeline-renderer.ts"
import type { Overlay, Scene, Timeline } from "../../domain/timeline.ts"
import { type Frame, readFrame } from "../support/clips.ts"

const run = promisify(execFile)
const W = 360
const H = 640
const RATE = 30
type Rgb = readonly [number, number, number]
const RED: Rgb = [255, 0, 0]
const GREEN: Rgb = [0, 255, 0]
const BLUE: Rgb = [0, 0, 255]
const YELLOW: Rgb = [255, 255, 0]
const MAGENTA: Rgb = [255, 0, 255]
const WHITE: Rgb = [255, 255, 255]
const CYAN: Rgb = [0, 255, 255]
const GREENSCREEN: Rgb = [0, 255, 0]

let dir = ""


/** How a picture of the animation is drawn, and for how many frames it shows. */
interface Shown {
  readonly draw: (ctx: SKRSContext2D) => void
  readonly frames: number
}

const fill = (colour: string) => (ctx: SKRSContext2D) => {
  ctx.fillStyle = colour
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height)
}

/** An animation of pictures each held for whole frames, played as the Animator plays one: an APNG into the render's pipe. */
const animation = (width: number, height: number, shown: ReadonlyArray<Shown>): AnimatedFrames => {
  const keys = shown.flatMap(({ frames }, i) => Array.from({ length: frames }, () => String(i)))
  return {
    frames: keys.length,
    encoding: { _tag: "Apng" },
    play: (sink) =>
      Effect.promise(() =>
        playFrameSequence({
          width,
          height,
          frames: keys.length,
          frameRate: RATE,
          keyAt: (frame) => keys[frame]!,
          draw: (ctx, key) => shown[Number(key)]!.draw(ctx)
        }, sink)
      ).pipe(Effect.map((sequence) => sequence.pictures))
  }
}

const timeline = (scenes: ReadonlyArray<Scene>, format: Timeline["format"] = "standard"): Timeline => ({
  width: W,
  height: H,
  frameRate: RATE,
  format,
  background: "#000000",
  scenes,
  narration: null,
  captions: null,
  music: null
})

const render = (name: string, t: Timeline, animations: Record<string, AnimatedFrames>) =>
  Effect.gen(function* () {
    const output = join(dir, `${name}.mp4`)
    yield* (yield* TimelineRenderer).render({ timeline: t, animations: new Map(Object.entries(animations)), output, workDir: join(dir, `${name}-work`) })
    const { stdout } = yield* Effect.promise(() =>
      run("ffprobe", [
        "-v", "error", "-count_frames", "-select_streams", "v:0",
        "-show_entries", "stream=nb_read_frames,width,height:format=duration", "-of", "json", output
      ])
    )
    const probed = JSON.parse(stdout) as {
      streams: Array<{ nb_read_frames: string; width: number; height: number }>
      format: { duration: string }
    }
    const video = probed.streams[0]!
    return { output, frames: Number(video.nb_read_frames), size: [video.width, video.height], duration: Number(probed.format.duration) }
  })

/** The frames with these indexes (a read at t gives the first frame starting at or after t). */
const frames = (path: string, indexes: ReadonlyArray<number>) =>
  Effect.promise(() => Promise.all(indexes.map((n) => readFrame(path, Math.max(0, (n - 0.4) / RATE), W, H))))

/** The mean colour of a box of pixels. */
const colourAt = (frame: Frame, box: { readonly x: number; readonly y: number; readonly w: number; readonly h: number }): Rgb => {
  const sum = [0, 0, 0]
  for (let y = box.y; y < box.y + box.h; y++) {
    for (let x = box.x; x < box.x + box.w; x++) for (let c = 0; c < 3; c++) sum[c]! += frame.rgb[(y * frame.width + x) * 3 + c]!
  }
  return sum.map((s) => Math.round(s / (box.w * box.h))) as unknown as Rgb
}

const expectColour = (actual: Rgb, expected: Rgb, tolerance = 24) =>
  expect(actual.every((v, c) => Math.abs(v - expected[c]!) <= tolerance), `${actual.join(",")} is not ${expected.join(",")}`).toBe(true)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "animation-timeline-"))
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

layer(FfmpegTimelineRendererLive)("FfmpegTimelineRenderer: animations", (it) => {
  it.effect("a whole scene: each picture on exactly its frames, the last held when the list ends early, then the next scene on its frame", () =>
    Effect.gen(function* () {
      // red for one frame, green for two, red again for one, blue for 16: 20 frames of a 30-frame scene
      const cards = animation(W, H, [
        { draw: fill("#FF0000"), frames: 1 },
        { draw: fill("#00FF00"), frames: 2 },
        { draw: fill("#FF0000"), frames: 1 },
        { draw: fill("#0000FF"), frames: 16 }
      ])
      const result = yield* render("scene", timeline([
        { durationSeconds: 1, visual: { _tag: "Animation", animation: "cards" }, overlays: [] },
        { durationSeconds: 0.5, visual: { _tag: "Colour", hex: "#FFFF00" }, overlays: [], transition: "cut" }
      ]), { cards })
      expect(result.size).toEqual([W, H])
      expect(result.frames).toBe(45)
      expect(result.duration).toBeCloseTo(1.5, 2)
      const expected: ReadonlyArray<readonly [number, Rgb]> = [
        [0, RED], [1, GREEN], [2, GREEN], [3, RED], [4, BLUE], [19, BLUE], [29, BLUE], [30, YELLOW], [44, YELLOW]
      ]
      const shots = yield* frames(result.output, expected.map(([n]) => n))
      shots.forEach((shot, i) => expectColour(colourAt(shot, { x: 100, y: 200, w: 160, h: 240 }), expected[i]![1]))
    }))

  it.effect("the halves of a split: one drawn at its size, one drawn smaller and scaled to fill its half", () =>
    Effect.gen(function* () {
      const half = H / 2
      const upper = animation(W, half, [{ draw: fill("#FFFF00"), frames: 10 }, { draw: fill("#FF00FF"), frames: 20 }])
      const lower = animation(W / 4, half / 4, [{ draw: fill("#00FFFF"), frames: 30 }])
      const result = yield* render("split", timeline([
        {
          durationSeconds: 1,
          visual: { _tag: "Split", top: { _tag: "Animation", animation: "top" }, bottom: { _tag: "Animation", animation: "bottom" } },
          overlays: []
        }
      ]), { top: upper, bottom: lower })
      expect(result.frames).toBe(30)
      const [early, late, last] = yield* frames(result.output, [9, 10, 29])
      const top = { x: 20, y: 20, w: W - 40, h: half - 40 }
      const bottom = { x: 20, y: half + 20, w: W - 40, h: half - 40 }
      expectColour(colourAt(early!, top), YELLOW)
      expectColour(colourAt(late!, top), MAGENTA)
      expectColour(colourAt(last!, top), MAGENTA)
      for (const shot of [early!, late!, last!]) expectColour(colourAt(shot, bottom), CYAN)
    }))

  it.effect("an overlay: placed by fractions, its transparent parts show the scene, half-transparent parts blend; greenscreen keeps it", () =>
    Effect.gen(function* () {
      // 180x120: left third opaque red, middle third white at half opacity, right third clear; then all white
      const card = animation(180, 120, [{
        draw: (ctx) => {
          ctx.fillStyle = "#FF0000"
          ctx.fillRect(0, 0, 60, 120)
          ctx.fillStyle = "rgba(255, 255, 255, 0.5)"
          ctx.fillRect(60, 0, 60, 120)
        },
        frames: 15
      }, { draw: fill("#FFFFFF"), frames: 15 }])
      const overlay: Overlay = { _tag: "Animation", animation: "card", x: 0.25, y: 0.5 }
      // the overlay's left edge at x=90, its top at y=320
      const band = (x: number) => ({ x, y: 340, w: 40, h: 80 })
      const [red, half, clear] = [band(100), band(160), band(220)]
      const outside = { x: 20, y: 100, w: 60, h: 100 }
      const scene: Scene = { durationSeconds: 1, visual: { _tag: "Colour", hex: "#0000FF" }, overlays: [overlay] }

      const standard = yield* render("overlay", timeline([scene]), { card })
      expect(standard.frames).toBe(30)
      const [first, second] = yield* frames(standard.output, [14, 15])
      expectColour(colourAt(first!, red), RED)
      expectColour(colourAt(first!, half), [128, 128, 255], 30)
      expectColour(colourAt(first!, clear), BLUE)
      expectColour(colourAt(first!, outside), BLUE)
      for (const box of [red, half, clear]) expectColour(colourAt(second!, box), WHITE)
      expectColour(colourAt(second!, outside), BLUE)

      const green = yield* render("overlay-green", timeline([scene], "greenscreen"), { card })
      expect(green.frames).toBe(30)
      const [shot] = yield* frames(green.output, [5])
      expectColour(colourAt(shot!, red), RED)
      expectColour(colourAt(shot!, clear), GREENSCREEN)
      expectColour(colourAt(shot!, outside), GREENSCREEN)
    }))
  it.effect("raw frames at half the size and half the rate: scaled to fill, each frame held for two of a 60 fps render", () =>
    Effect.gen(function* () {
      const [w, h] = [W / 2, H / 2]
      const solid = (rgba: ReadonlyArray<number>) => Buffer.from(Array.from({ length: w * h }, () => rgba).flat())
      // 5 frames red, then 10 green, at 30 fps: a third of a second, then two thirds.
      const pictures = [...Array.from({ length: 5 }, () => solid([255, 0, 0, 255])), ...Array.from({ length: 10 }, () => solid([0, 255, 0, 255]))]
      const game: AnimatedFrames = {
        frames: pictures.length,
        encoding: { _tag: "RawRgba", width: w, height: h, frameRate: 30 },
        play: (sink) =>
          Effect.promise(async () => {
            for (const picture of pictures) if (!(await sink(picture))) break
            return pictures.length
          })
      }
      const result = yield* render("raw", { ...timeline([{ durationSeconds: 0.5, visual: { _tag: "Animation", animation: "game" }, overlays: [] }]), frameRate: 60 }, { game })
      expect(result.frames).toBe(30)
      expect(result.size).toEqual([W, H])
      const shots = yield* Effect.promise(() => Promise.all([0, 9, 10, 29].map((n) => readFrame(result.output, Math.max(0, (n - 0.4) / 60), W, H))))
      const middle = { x: 40, y: 80, w: W - 80, h: H - 160 }
      expectColour(colourAt(shots[0]!, middle), RED)
      expectColour(colourAt(shots[1]!, middle), RED)
      expectColour(colourAt(shots[2]!, middle), GREEN)
      expectColour(colourAt(shots[3]!, middle), GREEN)
    }))

  it.effect("an animation played twice is drawn once, into one pipe that feeds both", () =>
    Effect.gen(function* () {
      const half = H / 2
      let plays = 0
      const cards = animation(W, half, [{ draw: fill("#FFFF00"), frames: 10 }, { draw: fill("#FF00FF"), frames: 20 }])
      const counted: AnimatedFrames = { ...cards, play: (sink) => Effect.suspend(() => (plays++, cards.play(sink))) }
      const result = yield* render("twice", timeline([
        {
          durationSeconds: 1,
          visual: { _tag: "Split", top: { _tag: "Animation", animation: "cards" }, bottom: { _tag: "Animation", animation: "cards" } },
          overlays: []
        }
      ]), { cards: counted })
      expect(plays).toBe(1)
      expect(result.frames).toBe(30)
      const [early, late] = yield* frames(result.output, [9, 10])
      for (const y of [20, half + 20]) {
        expectColour(colourAt(early!, { x: 20, y, w: W - 40, h: half - 40 }), YELLOW)
        expectColour(colourAt(late!, { x: 20, y, w: W - 40, h: half - 40 }), MAGENTA)
      }
    }))

  it.effect("an animation that fails while it is drawn fails the render with its own error", () =>
    Effect.gen(function* () {
      const broken: AnimatedFrames = {
        frames: 30,
        encoding: { _tag: "Apng" },
        play: (sink) =>
          Effect.promise(() => sink(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).pipe(
            Effect.zipRight(Effect.fail(new WorkFailed({ message: "The animation's pictures could not be drawn; try again." })))
          )
      }
      const scene: Scene = { durationSeconds: 1, visual: { _tag: "Animation", animation: "broken" }, overlays: [] }
      const failure = yield* Effect.flip(render("broken", timeline([scene]), { broken }))
      expect(failure.message).toBe("The animation's pictures could not be drawn; try again.")
    }))

  it.effect("a render that fails while the animation is drawn stops the drawing and says why", () =>
    Effect.gen(function* () {
      let written = 0
      // Not an APNG: ffmpeg gives up, and the sink says so instead of taking bytes for ever.
      const garbage: AnimatedFrames = {
        frames: 30,
        encoding: { _tag: "Apng" },
        play: (sink) =>
          Effect.promise(async () => {
            while (await sink(new Uint8Array(64 * 1024).fill(7))) written++
            return 0
          })
      }
      const scene: Scene = { durationSeconds: 1, visual: { _tag: "Animation", animation: "garbage" }, overlays: [] }
      const failure = yield* Effect.flip(render("garbage", timeline([scene]), { garbage }))
      expect(failure).toBeInstanceOf(WorkFailed)
      expect(failure.message).toMatch(/^Rendering the video failed: .*pipe:3/)
      expect(written).toBeLessThan(1000)
    }))
})
