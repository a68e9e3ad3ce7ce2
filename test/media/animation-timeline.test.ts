import { execFile } from "node:child_process"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FfmpegTimelineRendererLive } from "../../adapters/media/ffmpeg-timeline-renderer.ts"
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

const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])

/** An RGBA PNG of `width` x `height`, its pixels from `source`, given the size (a lavfi graph). */
const picture = async (folder: string, name: string, width: number, height: number, source: (size: string) => string): Promise<string> => {
  await ffmpeg("-f", "lavfi", "-i", `${source(`${width}x${height}`)},format=rgba`, "-frames:v", "1", join(folder, name))
  return name
}

const opaque = (colour: string) => (size: string) => `color=c=${colour}:s=${size}`

/**
 * An ffconcat list like the Animator's: pictures each held for whole frames, the last listed again.
 * The demuxer keeps the first file's time base, a PNG's 1/25 s; `option framerate` puts it on frames
 * instead (the Animator writes one-frame APNGs for the same reason), so a picture can show for one frame.
 */
const animation = async (name: string, pictures: ReadonlyArray<{ readonly file: string; readonly frames: number }>): Promise<string> => {
  const lines = ["ffconcat version 1.0"]
  for (const { file, frames } of pictures) lines.push(`file ${file}`, `option framerate ${RATE}`, `duration ${(frames / RATE).toFixed(6)}`)
  lines.push(`file ${pictures[pictures.length - 1]!.file}`, `option framerate ${RATE}`)
  const path = join(dir, name, "frames.ffconcat")
  await writeFile(path, `${lines.join("\n")}\n`)
  return path
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

const render = (name: string, t: Timeline) =>
  Effect.gen(function* () {
    const output = join(dir, `${name}.mp4`)
    yield* (yield* TimelineRenderer).render({ timeline: t, output, workDir: join(dir, `${name}-work`) })
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
      const folder = join(dir, "scene")
      const path = yield* Effect.promise(async () => {
        await mkdir(folder)
        const files = await Promise.all([
          picture(folder, "red.png", W, H, opaque("red")),
          picture(folder, "green.png", W, H, opaque("lime")),
          picture(folder, "blue.png", W, H, opaque("blue"))
        ])
        // red for one frame, green for two, red again for one, blue for 16: 20 frames of a 30-frame scene
        return animation("scene", [
          { file: files[0]!, frames: 1 },
          { file: files[1]!, frames: 2 },
          { file: files[0]!, frames: 1 },
          { file: files[2]!, frames: 16 }
        ])
      })
      const result = yield* render("scene", timeline([
        { durationSeconds: 1, visual: { _tag: "Animation", path }, overlays: [] },
        { durationSeconds: 0.5, visual: { _tag: "Colour", hex: "#FFFF00" }, overlays: [], transition: "cut" }
      ]))
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
      const folder = join(dir, "split")
      const half = H / 2
      const path = yield* Effect.promise(async () => {
        await mkdir(folder)
        const files = await Promise.all([
          picture(folder, "yellow.png", W, half, opaque("yellow")),
          picture(folder, "magenta.png", W, half, opaque("magenta")),
          picture(folder, "cyan.png", W / 4, half / 4, opaque("cyan"))
        ])
        await mkdir(join(dir, "small"))
        return {
          top: await animation("split", [{ file: files[0]!, frames: 10 }, { file: files[1]!, frames: 20 }]),
          bottom: await animation("small", [{ file: `../split/${files[2]!}`, frames: 30 }])
        }
      })
      const result = yield* render("split", timeline([
        {
          durationSeconds: 1,
          visual: { _tag: "Split", top: { _tag: "Animation", path: path.top }, bottom: { _tag: "Animation", path: path.bottom } },
          overlays: []
        }
      ]))
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
      const folder = join(dir, "overlay")
      // 180x120: left third opaque red, middle third white at half opacity, right third clear; then all white
      const path = yield* Effect.promise(async () => {
        await mkdir(folder)
        const files = await Promise.all([
          picture(folder, "card.png", 180, 120, (size) =>
            `color=c=white:s=${size},format=rgba,geq=r=255:g='if(lt(X,60),0,255)':b='if(lt(X,60),0,255)':a='if(lt(X,60),255,if(lt(X,120),128,0))'`),
          picture(folder, "white.png", 180, 120, opaque("white"))
        ])
        return animation("overlay", [{ file: files[0]!, frames: 15 }, { file: files[1]!, frames: 15 }])
      })
      const overlay: Overlay = { _tag: "Animation", path, x: 0.25, y: 0.5 }
      // the overlay's left edge at x=90, its top at y=320
      const band = (x: number) => ({ x, y: 340, w: 40, h: 80 })
      const [red, half, clear] = [band(100), band(160), band(220)]
      const outside = { x: 20, y: 100, w: 60, h: 100 }
      const scene: Scene = { durationSeconds: 1, visual: { _tag: "Colour", hex: "#0000FF" }, overlays: [overlay] }

      const standard = yield* render("overlay", timeline([scene]))
      expect(standard.frames).toBe(30)
      const [first, second] = yield* frames(standard.output, [14, 15])
      expectColour(colourAt(first!, red), RED)
      expectColour(colourAt(first!, half), [128, 128, 255], 30)
      expectColour(colourAt(first!, clear), BLUE)
      expectColour(colourAt(first!, outside), BLUE)
      for (const box of [red, half, clear]) expectColour(colourAt(second!, box), WHITE)
      expectColour(colourAt(second!, outside), BLUE)

      const green = yield* render("overlay-green", timeline([scene], "greenscreen"))
      expect(green.frames).toBe(30)
      const [shot] = yield* frames(green.output, [5])
      expectColour(colourAt(shot!, red), RED)
      expectColour(colourAt(shot!, clear), GREENSCREEN)
      expectColour(colourAt(shot!, outside), GREENSCREEN)
    }))
})
