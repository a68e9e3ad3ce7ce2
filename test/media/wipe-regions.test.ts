// Wiping burned-in text: a clip with a caption that changes every 2 s and a static watermark, over a
// smooth, a still textured and a moving textured background, against the same clip drawn without text.
import { execFile } from "node:child_process"
import { mkdtemp, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import type { PixelBox, TextRegion } from "../../domain/text-regions.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])

const W = 360
const H = 640
const FPS = 30
const SECONDS = 6
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
/** Every third frame is compared. */
const STEP = 3

/** Caption k is on screen from 2k+0.3 to 2k+1.7 s: it changes every 2 s, with a moment of clean picture between. */
const CAPTIONS = ["FIRST CAPTION", "SECOND ONE HERE", "THIRD"]
const shown = (k: number) => ({ from: 2 * k + 0.3, to: 2 * k + 1.7 })
const TEXT = [
  `drawtext=fontfile=${FONT}:text='@reelwright':fontsize=22:fontcolor=white:borderw=2:x=20:y=24`,
  ...CAPTIONS.map((text, k) =>
    `drawtext=fontfile=${FONT}:text='${text}':fontsize=26:fontcolor=${k === 1 ? "yellow" : "white"}:borderw=3:` +
    `x=(w-tw)/2:y=440:enable='between(t,${shown(k).from},${shown(k).to})'`
  )
].join(",")

interface Clip {
  readonly clean: string
  readonly texted: string
}

/** Packed rgb24 frames n = 0, STEP, 2 STEP, ... */
type Frames = ReadonlyArray<Buffer>

let dir = ""
let smooth: Clip
let still: Clip
let moving: Clip
let watermarkBox: PixelBox
let captionBoxes: ReadonlyArray<PixelBox>

/** The clip drawn from `background` (a filter chain on input 0), with a 440 Hz tone, without and with the text. */
const makeClip = async (name: string, input: ReadonlyArray<string>, background: string): Promise<Clip> => {
  const make = (output: string, text: boolean) =>
    ffmpeg(
      ...input, "-f", "lavfi", "-i", `sine=frequency=440:duration=${SECONDS}`,
      "-filter_complex", `[0:v]${background},format=yuv420p${text ? `,${TEXT}` : ""}[v]`,
      "-map", "[v]", "-map", "1:a", "-t", String(SECONDS), "-r", String(FPS),
      "-c:v", "libx264", "-preset", "ultrafast", "-crf", "14", "-c:a", "aac", "-b:a", "96k",
      output
    )
  const clip = { clean: join(dir, `${name}-clean.mp4`), texted: join(dir, `${name}.mp4`) }
  await Promise.all([make(clip.clean, false), make(clip.texted, true)])
  return clip
}

const framesOf = async (path: string): Promise<Frames> => {
  const { stdout } = await run(
    "ffmpeg",
    ["-nostdin", "-v", "error", "-i", path, "-vf", `select='not(mod(n,${STEP}))'`, "-fps_mode", "passthrough",
      "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { encoding: "buffer", maxBuffer: 256 << 20 }
  )
  const size = W * H * 3
  return Array.from({ length: stdout.length / size }, (_, i) => stdout.subarray(i * size, (i + 1) * size))
}

const seconds = (frame: number) => (frame * STEP) / FPS
const inBox = (box: PixelBox, x: number, y: number) => x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height

/** PSNR in dB of `b` against `a` over the pixels `counted` picks (frame index, x, y). */
const psnr = (a: Frames, b: Frames, counted: (frame: number, x: number, y: number) => boolean): number => {
  expect(b.length).toBe(a.length)
  let squared = 0
  let values = 0
  a.forEach((frameA, f) => {
    const frameB = b[f]!
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        if (!counted(f, x, y)) continue
        for (let c = 0, i = (y * W + x) * 3; c < 3; c++, i++) squared += (frameA[i]! - frameB[i]!) ** 2
        values += 3
      }
    }
  })
  expect(values).toBeGreaterThan(0)
  return squared === 0 ? Infinity : 10 * Math.log10((255 * 255) / (squared / values))
}

/** Where `region` is wiped: inside its box while it is shown. */
const wiped = (region: TextRegion) => (f: number, x: number, y: number) =>
  seconds(f) >= region.startSeconds && seconds(f) <= region.endSeconds && inBox(region.box, x, y)
const outside = (regions: ReadonlyArray<TextRegion>) => (_: number, x: number, y: number) =>
  regions.every((r) => !inBox(r.box, x, y))

/** The bounding box of the pixels where the texted clip differs from the clean one, in rows top..bottom of the frame at t. */
const drawnBox = async (clip: Clip, t: number, top: number, bottom: number): Promise<PixelBox> => {
  const frame = async (path: string) =>
    (await run("ffmpeg", ["-nostdin", "-v", "error", "-ss", String(t), "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
      { encoding: "buffer", maxBuffer: 8 << 20 })).stdout
  const [clean, texted] = await Promise.all([frame(clip.clean), frame(clip.texted)])
  let x1 = W, y1 = H, x2 = -1, y2 = -1
  for (let y = top; y < bottom; y++) {
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 3
      if (Math.max(...[0, 1, 2].map((c) => Math.abs(clean[i + c]! - texted[i + c]!))) <= 40) continue
      x1 = Math.min(x1, x)
      x2 = Math.max(x2, x)
      y1 = Math.min(y1, y)
      y2 = Math.max(y2, y)
    }
  }
  expect(x2).toBeGreaterThan(x1)
  // padded by 8 px, on even pixels, as trackRegions pads what the detector finds
  const x = Math.floor((x1 - 8) / 2) * 2
  const y = Math.floor((y1 - 8) / 2) * 2
  return { x, y, width: Math.ceil((x2 + 9) / 2) * 2 - x, height: Math.ceil((y2 + 9) / 2) * 2 - y }
}

/**
 * The regions as tracking gives them from 2 samples a second at (i + 0.5) / 2 s: the watermark
 * throughout, each caption from the sample before it was seen to the sample after.
 */
const regions = (): Array<TextRegion> => [
  { kind: "watermark", box: watermarkBox, startSeconds: 0, endSeconds: SECONDS, score: 0.99 },
  ...captionBoxes.map((box, k): TextRegion => ({ kind: "caption", box, startSeconds: 2 * k + 0.25, endSeconds: 2 * k + 1.75, score: 0.98 }))
]

const probe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-count_frames", "-of", "json", "-show_format", "-show_streams", path])
  const out = JSON.parse(stdout) as {
    streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate: string; nb_read_frames?: string }>
    format: { duration: string }
  }
  return { video: out.streams.find((s) => s.codec_type === "video")!, audio: out.streams.find((s) => s.codec_type === "audio"), duration: Number(out.format.duration) }
}

/** The decoded audio's checksum: the same sound, sample for sample. */
const audioMd5 = async (path: string) => (await run("ffmpeg", ["-v", "error", "-i", path, "-map", "0:a", "-f", "md5", "-"])).stdout.trim()

/** Mean absolute difference (0..255) of a box between two frames. */
const boxChange = (a: Buffer, b: Buffer, box: PixelBox): number => {
  let sum = 0
  for (let y = box.y; y < box.y + box.height; y++) {
    for (let x = box.x; x < box.x + box.width; x++) for (let c = 0, i = (y * W + x) * 3; c < 3; c++, i++) sum += Math.abs(a[i]! - b[i]!)
  }
  return sum / (box.width * box.height * 3)
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "wipe-regions-"))
  const texture = join(dir, "texture.png")
  // a fine, colourful weave, twice the frame's width so that it can scroll
  await ffmpeg("-f", "lavfi", "-i", `color=c=gray:s=${2 * W}x${H}`, "-vf",
    "geq=lum='128+50*sin(X/3.1)*cos(Y/4.3)+30*sin((X+2*Y)/9)':cb='128+20*sin(X/17)':cr='128+20*cos(Y/13)'", "-frames:v", "1", texture)
  const looped = ["-loop", "1", "-framerate", String(FPS), "-i", texture];
  [smooth, still, moving] = await Promise.all([
    makeClip("smooth", ["-f", "lavfi", "-i", `gradients=s=${W}x${H}:r=${FPS}:c0=0x3060c0:c1=0xe08040:speed=0.02:seed=1`], "null"),
    makeClip("still", looped, `crop=${W}:${H}:0:0`),
    makeClip("moving", looped, `crop=${W}:${H}:x='mod(t*40\\,${W})':y=0`)
  ])
  watermarkBox = await drawnBox(smooth, 1, 0, 200)
  captionBoxes = await Promise.all(CAPTIONS.map((_, k) => drawnBox(smooth, 2 * k + 1, 300, H)))
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

layer(FfmpegEngineLive)("FfmpegEngine.wipeRegions", (it) => {
  const wipe = (clip: Clip, name: string, onProgress?: (f: number) => void) =>
    Effect.gen(function* () {
      const output = join(dir, `${name}-wiped.mp4`)
      yield* (yield* MediaEngine).wipeRegions({ input: clip.texted, output, regions: regions(), ...(onProgress ? { onProgress } : {}) })
      const [clean, texted, out] = yield* Effect.promise(() => Promise.all([clip.clean, clip.texted, output].map(framesOf)))
      return { output, clean: clean!, texted: texted!, out: out! }
    })

  describe("over a smooth background", () => {
    it.effect("gives back the clean picture in the regions and the source's elsewhere, with the same frames, length and sound", () =>
      Effect.gen(function* () {
        const progress: Array<number> = []
        const { output, clean, texted, out } = yield* wipe(smooth, "smooth", (f) => progress.push(f))
        for (const region of regions()) {
          // the text was there...
          expect(psnr(clean, texted, wiped(region))).toBeLessThan(20)
          // ...and is gone
          expect(psnr(clean, out, wiped(region))).toBeGreaterThanOrEqual(30)
        }
        expect(psnr(texted, out, outside(regions()))).toBeGreaterThanOrEqual(40)

        const [source, result] = yield* Effect.promise(() => Promise.all([probe(smooth.texted), probe(output)]))
        expect([result.video.codec_name, result.video.width, result.video.height, result.video.r_frame_rate]).toEqual(["h264", W, H, `${FPS}/1`])
        expect(result.video.nb_read_frames).toBe(source.video.nb_read_frames)
        expect(result.duration).toBeCloseTo(source.duration, 2)
        expect(result.audio?.codec_name).toBe("aac")
        const [sourceSound, resultSound] = yield* Effect.promise(() => Promise.all([audioMd5(smooth.texted), audioMd5(output)]))
        expect(resultSound).toBe(sourceSound)

        expect(progress.length).toBeGreaterThan(0)
        expect(progress.every((f, i) => f >= (progress[i - 1] ?? 0) && f <= 1)).toBe(true)
        expect(progress[progress.length - 1]).toBe(1)
        // its working files are gone
        expect((yield* Effect.promise(() => readdir(dir))).filter((name) => name.includes(".wipe-"))).toEqual([])
      }))
  })

  describe("over a textured background", () => {
    it.effect("still: each caption is filled from the clean frame before it; the watermark, never clean, is smoothed over", () =>
      Effect.gen(function* () {
        const { clean, texted, out } = yield* wipe(still, "still")
        const [watermark, ...captions] = regions()
        for (const caption of captions) expect(psnr(clean, out, wiped(caption))).toBeGreaterThanOrEqual(30)
        // delogo smears over texture, but the text is gone
        expect(psnr(clean, out, wiped(watermark!))).toBeGreaterThan(psnr(clean, texted, wiped(watermark!)) + 3)
        expect(psnr(texted, out, outside(regions()))).toBeGreaterThanOrEqual(35)
      }))

    it.effect("moving: no caption is frozen over the moving picture; each is smoothed over instead", () =>
      Effect.gen(function* () {
        const { clean, texted, out } = yield* wipe(moving, "moving")
        for (const caption of regions().slice(1)) {
          expect(psnr(clean, out, wiped(caption))).toBeGreaterThan(psnr(clean, texted, wiped(caption)) + 3)
          // a pasted still would not change from one frame to another
          const first = Math.ceil((caption.startSeconds * FPS) / STEP)
          const last = Math.floor((caption.endSeconds * FPS) / STEP)
          expect(boxChange(out[first]!, out[last]!, caption.box)).toBeGreaterThan(5)
          expect(boxChange(clean[first]!, clean[last]!, caption.box)).toBeGreaterThan(5)
        }
      }))
  })

  it.effect("keeps a silent video silent, pulls boxes at the frame's edges inside it, and wipes nothing when given no regions", () =>
    Effect.gen(function* () {
      const engine = yield* MediaEngine
      const mute = join(dir, "mute.mp4")
      yield* Effect.promise(() => ffmpeg("-i", smooth.texted, "-an", "-t", "1", "-c:v", "copy", mute))
      const edges = join(dir, "edges.mp4")
      const band: TextRegion = { kind: "watermark", box: { x: 0, y: 0, width: W, height: 64 }, startSeconds: 0, endSeconds: 1, score: 1 }
      const corner: TextRegion = { kind: "caption", box: { x: W - 40, y: H - 40, width: 40, height: 40 }, startSeconds: 0.2, endSeconds: 0.6, score: 1 }
      yield* engine.wipeRegions({ input: mute, output: edges, regions: [band, corner] })
      const untouched = join(dir, "untouched.mp4")
      yield* engine.wipeRegions({ input: mute, output: untouched, regions: [] })
      const [source, withEdges, withNothing, clean] = yield* Effect.promise(() => Promise.all([mute, edges, untouched, smooth.clean].map(framesOf)))
      const probed = yield* Effect.promise(() => probe(edges))
      expect(probed.audio).toBeUndefined()
      expect([probed.video.width, probed.video.height]).toEqual([W, H])
      // the handle at the top is gone; the rest is the source
      const top = (_: number, x: number, y: number) => y >= 2 && y < 64 && x >= 2 && x < W - 2
      expect(psnr(clean!.slice(0, source!.length), withEdges!, top)).toBeGreaterThanOrEqual(30)
      expect(psnr(source!, withEdges!, (_, __, y) => y >= 80 && y < H - 60)).toBeGreaterThanOrEqual(40)
      expect(psnr(source!, withNothing!, () => true)).toBeGreaterThanOrEqual(40)
    }))

  it.effect("fails with WorkFailed on a source without picture, and when ffmpeg cannot write the result", () =>
    Effect.gen(function* () {
      const engine = yield* MediaEngine
      const sound = join(dir, "sound.m4a")
      yield* Effect.promise(() => ffmpeg("-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", sound))
      const noPicture = yield* Effect.flip(engine.wipeRegions({ input: sound, output: join(dir, "never.mp4"), regions: regions() }))
      expect(noPicture._tag).toBe("WorkFailed")
      expect(noPicture.message).toBe("The source has no picture to wipe text from.")
      const badOutput = yield* Effect.flip(engine.wipeRegions({ input: smooth.texted, output: join(dir, "result.unknown-format"), regions: regions() }))
      expect(badOutput._tag).toBe("WorkFailed")
      expect(badOutput.message).toMatch(/^Wiping the text failed: \S/)
      expect((yield* Effect.promise(() => readdir(dir))).filter((name) => name.includes(".wipe-"))).toEqual([])
    }))
})
