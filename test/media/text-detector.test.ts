import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, it, layer } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeOnnxTextDetector, OnnxTextDetectorLive } from "../../adapters/media/onnx-text-detector.ts"
import { modelFrame, textBoxes, toVideoBox } from "../../adapters/media/text-boxes.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { TextDetector } from "../../domain/ports/text-detector.ts"
import type { DetectedBox, FrameSample } from "../../domain/text-regions.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args], { maxBuffer: 64 << 20 })

// 540x960 is half of a 1080x1920 short: the detector scales it to 360x640 and pads it to 384x640, so
// the boxes come back through its scaling. The text sizes are half of 36-56 px captions at 1080x1920.
const W = 540
const H = 960
const SECONDS = 6
const FONTS = "/usr/share/fonts/truetype/dejavu"

interface Text {
  readonly text: string
  readonly font: string
  readonly size: number
  readonly border: number
  readonly x: string
  readonly y: string
}

const WATERMARK: Text = { text: "@mywatermark", font: "DejaVuSans.ttf", size: 20, border: 0, x: "20", y: "40" }
/** One caption every 2 s, of different lengths so a box fits only its own. */
const CAPTIONS: ReadonlyArray<Text> = ["FIRST CAPTION HERE", "short one", "AND THE LAST WORDS NOW"].map((text) => ({
  text,
  font: "DejaVuSans-Bold.ttf",
  size: 26,
  border: 3,
  x: "(w-tw)/2",
  y: "h-200"
}))

const drawtext = (t: Text, color: string, borderColor: string, enable?: string) =>
  `drawtext=fontfile=${FONTS}/${t.font}:text='${t.text}':fontsize=${t.size}:fontcolor=${color}:` +
  `borderw=${t.border}:bordercolor=${borderColor}:x=${t.x}:y=${t.y}` + (enable === undefined ? "" : `:enable='${enable}'`)

const captionFilters = CAPTIONS.map((t, i) => drawtext(t, "white", "black", `between(t,${2 * i},${2 * i + 2})`))

/** The text's drawn pixels (border included), measured by drawing it alone in white on black. */
const measure = async (t: Text): Promise<DetectedBox> => {
  const { stdout } = await run("ffmpeg", [
    "-v", "error", "-f", "lavfi", "-i", `color=black:s=${W}x${H}`, "-frames:v", "1",
    "-vf", drawtext(t, "white", "white"), "-f", "rawvideo", "-pix_fmt", "gray", "pipe:1"
  ], { encoding: "buffer", maxBuffer: 16 << 20 })
  let left = W, top = H, right = -1, bottom = -1
  stdout.forEach((value, i) => {
    if (value < 64) return
    const x = i % W
    const y = (i - x) / W
    left = Math.min(left, x)
    right = Math.max(right, x)
    top = Math.min(top, y)
    bottom = Math.max(bottom, y)
  })
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1, score: 1 }
}

const area = (b: DetectedBox) => b.width * b.height
const intersection = (a: DetectedBox, b: DetectedBox) =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y))
const iou = (a: DetectedBox, b: DetectedBox) => {
  const shared = intersection(a, b)
  return shared / (area(a) + area(b) - shared)
}

/**
 * The box found for some text: the bounding box of the boxes that lie mostly on it (the model may cut a
 * line in two where the background changes under it), or undefined when none does. Boxes of the
 * background's own shapes that only touch the text are not its.
 */
const foundFor = (sample: FrameSample, text: DetectedBox): DetectedBox | undefined => {
  const overlapping = sample.boxes.filter((b) => intersection(b, text) >= 0.5 * area(b))
  if (overlapping.length === 0) return undefined
  const left = Math.min(...overlapping.map((b) => b.x))
  const top = Math.min(...overlapping.map((b) => b.y))
  const right = Math.max(...overlapping.map((b) => b.x + b.width))
  const bottom = Math.max(...overlapping.map((b) => b.y + b.height))
  return { x: left, y: top, width: right - left, height: bottom - top, score: Math.min(...overlapping.map((b) => b.score)) }
}

const BACKGROUNDS = {
  gradient: `gradients=s=${W}x${H}:r=10:c0=0x3050a0:c1=0xe0a060:speed=0.02:seed=7`,
  // Colour bars, a moving diagonal, a checkerboard and a timecode of its own in the top-left corner.
  textured: `testsrc2=s=${W}x${H}:r=10`
}

let dir = ""
const clips: Record<string, string> = {}
let watermarkBox: DetectedBox
let captionBoxes: ReadonlyArray<DetectedBox> = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "text-detector-"))
  const encode = async (name: string, source: string, filters: ReadonlyArray<string>) => {
    const path = join(dir, `${name}.mp4`)
    await ffmpeg(
      "-f", "lavfi", "-i", `${source}:d=${SECONDS}`,
      ...(filters.length > 0 ? ["-vf", filters.join(",")] : []),
      "-c:v", "libx264", "-preset", "ultrafast", "-crf", "18", "-pix_fmt", "yuv420p", path
    )
    clips[name] = path
  }
  const texts = [drawtext(WATERMARK, "white@0.85", "black"), ...captionFilters]
  await Promise.all([
    encode("gradient", BACKGROUNDS.gradient, texts),
    encode("textured", BACKGROUNDS.textured, texts),
    encode("plain", BACKGROUNDS.gradient, [])
  ])
  clips.notVideo = join(dir, "notes.mp4")
  await writeFile(clips.notVideo, "these are words, not a video\n")
  watermarkBox = await measure(WATERMARK)
  captionBoxes = await Promise.all(CAPTIONS.map(measure))
})

afterAll(() => rm(dir, { recursive: true, force: true }))

const request = (input: string, minScore: number, onProgress?: (fraction: number) => void) => ({
  input,
  width: W,
  height: H,
  durationSeconds: SECONDS,
  samplesPerSecond: 2,
  minScore,
  ...(onProgress === undefined ? {} : { onProgress })
})

/** A found box that fits the text: most of the text inside it, and IoU above 0.5. */
const expectFits = (found: DetectedBox | undefined, text: DetectedBox, what: string) => {
  expect(found, what).toBeDefined()
  expect(intersection(found!, text) / area(text), `${what}: share of the text inside the box`).toBeGreaterThan(0.9)
  expect(iou(found!, text), `${what}: IoU`).toBeGreaterThan(0.5)
}

layer(OnnxTextDetectorLive, { timeout: "120 seconds" })("OnnxTextDetector", (it) => {
  for (const background of ["gradient", "textured"] as const) {
    it.effect(`finds the watermark and the caption of the moment on every sample (${background} background)`, () =>
      Effect.gen(function*() {
        const detector = yield* TextDetector
        const progress: Array<number> = []
        const samples = yield* detector.scan(request(clips[background]!, 0.8, (f) => progress.push(f)))

        expect(samples.map((s) => s.atSeconds)).toEqual([0.25, 0.75, 1.25, 1.75, 2.25, 2.75, 3.25, 3.75, 4.25, 4.75, 5.25, 5.75])
        for (const sample of samples) {
          const shown = Math.floor(sample.atSeconds / 2)
          const at = `at ${sample.atSeconds} s`
          expectFits(foundFor(sample, watermarkBox), watermarkBox, `watermark ${at}`)
          const caption = foundFor(sample, captionBoxes[shown]!)
          expectFits(caption, captionBoxes[shown]!, `caption "${CAPTIONS[shown]!.text}" ${at}`)
          // The box is this caption's, not one of the others' (all three share a line).
          captionBoxes.forEach((other, i) => {
            if (i !== shown) expect(iou(caption!, other), `caption ${at} against "${CAPTIONS[i]!.text}"`).toBeLessThan(iou(caption!, captionBoxes[shown]!))
          })
          for (const box of sample.boxes) {
            expect(box.score).toBeGreaterThanOrEqual(0.8)
            expect(box.x).toBeGreaterThanOrEqual(0)
            expect(box.y).toBeGreaterThanOrEqual(0)
            expect(box.x + box.width).toBeLessThanOrEqual(W)
            expect(box.y + box.height).toBeLessThanOrEqual(H)
          }
        }
        if (background === "gradient") {
          // Nothing else on a smooth background: one box for the watermark, one for the caption.
          expect(samples.map((s) => s.boxes.length)).toEqual(samples.map(() => 2))
        }
        expect(progress.length).toBe(samples.length + 1)
        expect(progress).toEqual([...progress].sort((a, b) => a - b))
        expect(progress.at(-1)).toBe(1)
      }))
  }

  it.effect("finds nothing scoring 0.8 or more on a clip without text", () =>
    Effect.gen(function*() {
      const detector = yield* TextDetector
      const samples = yield* detector.scan(request(clips.plain!, 0.8))
      expect(samples).toHaveLength(SECONDS * 2)
      expect(samples.flatMap((s) => s.boxes)).toEqual([])
      const everything = yield* detector.scan(request(clips.plain!, 0))
      expect(everything.flatMap((s) => s.boxes).every((b) => b.score < 0.8)).toBe(true)
    }))

  it.effect("fails with WorkFailed on a file that is not a video", () =>
    Effect.gen(function*() {
      const detector = yield* TextDetector
      const error = yield* Effect.flip(detector.scan(request(clips.notVideo!, 0.8)))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toMatch(/^Could not read the video's frames to look for text: .*Invalid data/)
    }))
})

it.effect("fails with WorkFailed when the model cannot be loaded, on every scan", () =>
  Effect.gen(function*() {
    const modelPath = join(dir, "missing-model.onnx")
    const detector = yield* makeOnnxTextDetector({ modelPath, maxSide: 640, ffmpegBinary: "ffmpeg" })
    for (let attempt = 0; attempt < 2; attempt++) {
      const exit = yield* Effect.exit(detector.scan(request(clips.plain!, 0.8)))
      expect(Exit.isFailure(exit)).toBe(true)
      if (Exit.isFailure(exit)) {
        expect(String(exit.cause)).toContain(`The text detection model ${modelPath} could not be loaded`)
      }
    }
  }).pipe(Effect.scoped))

it("turns a probability map into unclipped, scored boxes in the video's pixels", () => {
  // 1080x1920 fits into 360x640, padded to 384x640.
  const frame = modelFrame(1080, 1920, 640)
  expect(frame).toEqual({ scaledWidth: 360, scaledHeight: 640, width: 384, height: 640 })
  const map = new Float32Array(frame.width * frame.height)
  const paint = (x: number, y: number, width: number, height: number, value: number) => {
    for (let row = y; row < y + height; row++) map.fill(value, row * frame.width + x, row * frame.width + x + width)
  }
  paint(100, 200, 40, 10, 0.9) // a text line's kernel
  paint(100, 205, 20, 5, 0.7) // part of the same component: lowers its mean
  paint(300, 600, 2, 2, 0.99) // a speck, too small to be text
  paint(350, 10, 30, 10, 0.5) // half in the padding: clamped to the frame
  const boxes = textBoxes(map, frame.width, frame.height)
  // Unclip grows each side by area * 1.5 / perimeter: 400 * 1.5 / 100 = 6 and 300 * 1.5 / 80 = 5.625.
  expect(boxes).toEqual([
    { x: 344.375, y: 4.375, width: 41.25, height: 21.25, score: 0.5 },
    { x: 94, y: 194, width: 52, height: 22, score: expect.closeTo((300 * 0.9 + 100 * 0.7) / 400, 6) }
  ])
  expect(boxes.map((b) => toVideoBox(b, frame, 1080, 1920))).toEqual([
    { x: 1033, y: 13, width: 47, height: 64, score: 0.5 },
    { x: 282, y: 582, width: 156, height: 66, score: boxes[1]!.score }
  ])
  expect(toVideoBox({ x: 370, y: 0, width: 10, height: 10, score: 1 }, frame, 1080, 1920)).toBeUndefined()
})
