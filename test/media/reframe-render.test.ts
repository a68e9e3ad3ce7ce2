// Reframing for real: faces from the pictures @vladmandic/face-api ships (its demo photos, cropped to one
// head) moving over a 960x540 picture, found by the real detector, planned by the domain and drawn by
// burnCaptions; the output is looked at with the same detector. Face mode keeps a moving face in the
// middle third of a 9:16 output and moves smoothly; a scene change is a jump cut; no face is the centre;
// two faces apart are a split; fit shows the whole picture.
import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FaceApiFinderLive } from "../../adapters/media/face-api-finder.ts"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { BUILT_IN_TEMPLATES } from "../../domain/captions.ts"
import { FaceFinder } from "../../domain/ports/face-finder.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import { type FaceBox, type Framing, planFraming, type ReframeSettings, windowAt } from "../../domain/reframe.ts"
import { readFrame } from "../support/clips.ts"

const run = promisify(execFile)
const require = createRequire(import.meta.url)
const DEMO = join(dirname(require.resolve("@vladmandic/face-api/package.json")), "demo")
const SOURCE = { width: 960, height: 540 }
const RATE = 30

let dir = ""
let heads: readonly [string, string] = ["", ""]
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "reframe-"))
  // One head out of each of two group photos (where the package's own detector finds a face).
  const crop = async (photo: string, box: string, name: string) => {
    const path = join(dir, name)
    await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", join(DEMO, photo), "-vf", `crop=${box}`, path])
    return path
  }
  heads = [await crop("sample2.jpg", "340:420:1372:70", "head-a.png"), await crop("sample3.jpg", "330:440:520:240", "head-b.png")]
})
afterAll(() => (process.env.KEEP === "1" ? undefined : rm(dir, { recursive: true, force: true })))

interface Head {
  readonly picture: 0 | 1
  /** ffmpeg expressions of t for the head's left and top edges, in source pixels. */
  readonly x: string
  readonly y: string
}

/** Heads 190 px high over a flat background (a second colour from `cutAt` on: a scene change), silent, H.264. */
const clip = async (name: string, seconds: number, heads_: ReadonlyArray<Head>, cutAt?: number): Promise<string> => {
  const path = join(dir, `${name}.mp4`)
  const background = cutAt === undefined
    ? `color=c=0x4a6a8a:s=${SOURCE.width}x${SOURCE.height}:r=${RATE}`
    : `color=c=0x4a6a8a:s=${SOURCE.width}x${SOURCE.height}:r=${RATE},drawbox=x=0:y=0:w=iw:h=ih:color=0xd8c8a0:t=fill:enable='gte(t,${cutAt})'`
  const chains = heads_.flatMap((head, i) => [
    `[${i + 1}:v]scale=-2:190,loop=-1:1[h${i}]`,
    `[${i === 0 ? "0:v" : `o${i - 1}`}][h${i}]overlay=x='${head.x}':y='${head.y}':shortest=1[o${i}]`
  ])
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", background,
    ...heads_.flatMap((head) => ["-i", heads[head.picture]]),
    ...(heads_.length === 0 ? ["-vf", "null"] : ["-filter_complex", chains.join(";"), "-map", `[o${heads_.length - 1}]`]),
    "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", path
  ])
  return path
}

/** Finds the faces, plans the framing and exports it (no captions), as the caption pipeline does. */
const reframe = (input: string, seconds: number, settings: ReframeSettings) =>
  Effect.gen(function*() {
    const source = { ...SOURCE, durationSeconds: seconds }
    const faces = yield* (yield* FaceFinder).find({ input, ...source })
    const framing = planFraming(settings, source, faces)
    const output = join(dir, `${settings.mode}-${Math.random().toString(36).slice(2)}.mp4`)
    const style = BUILT_IN_TEMPLATES[0]!.style
    yield* (yield* MediaEngine).burnCaptions({
      input, output, captions: { pages: [], style }, framing, format: "standard", frameRate: RATE, width: framing.width, height: framing.height
    })
    return { framing, output, faces }
  })

/** The faces the detector finds in the output, a sample a second. */
const facesIn = (output: string, framing: Framing, seconds: number) =>
  Effect.flatMap(FaceFinder, (finder) => finder.find({ input: output, width: framing.width, height: framing.height, durationSeconds: seconds }))

const middle = (face: FaceBox) => face.x + face.width / 2

/** The window's place at every output frame, and its frame-to-frame steps. */
const windowSteps = (framing: Framing, seconds: number, window = 0) => {
  const xs = Array.from({ length: seconds * RATE }, (_, f) => windowAt(framing.paths[window]!, f / RATE).x)
  return xs.slice(1).map((x, i) => x - xs[i]!)
}

layer(Layer.mergeAll(FfmpegEngineLive, FaceApiFinderLive))("reframing", (it) => {
  describe("face", () => {
    it.effect("keeps a face moving across the picture in the middle third of a 9:16 output, moving smoothly", () =>
      Effect.gen(function*() {
        const seconds = 8
        const input = yield* Effect.promise(() => clip("moving", seconds, [{ picture: 0, x: "40+t*85", y: "170" }]))
        const { framing, output } = yield* reframe(input, seconds, { aspectRatio: "9:16", mode: "face" })
        expect(framing).toMatchObject({ mode: "face", width: 1080, height: 1920, crop: { width: 304, height: 540 } })
        const probe = yield* Effect.promise(() => run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=width,height,nb_frames", "-of", "csv=p=0", output]))
        expect(probe.stdout.trim()).toBe(`1080,1920,${seconds * RATE}`)
        const seen = (yield* facesIn(output, framing, seconds)).samples.filter((s) => s.faces.length > 0)
        expect(seen.length).toBeGreaterThanOrEqual(seconds - 1)
        const inMiddle = seen.filter((s) => s.faces.every((f) => middle(f) > 1080 / 3 && middle(f) < (2 * 1080) / 3))
        expect(inMiddle.length / seen.length).toBeGreaterThanOrEqual(0.95)
        // Steady: no step over 6 source px a frame (the face moves about 3), and the speed changes by at most 2 px a frame (whole pixels).
        const steps = windowSteps(framing, seconds)
        expect(Math.max(...steps.map(Math.abs))).toBeLessThanOrEqual(6)
        expect(Math.max(...steps.slice(1).map((s, i) => Math.abs(s - steps[i]!)))).toBeLessThanOrEqual(2)
      }), 120_000)

    it.effect("runs the detector on a still head again only after a few seconds, keeping its face meanwhile", () =>
      Effect.gen(function*() {
        const seconds = 8
        const input = join(dir, "still.mp4")
        // Grain that changes every frame, as a camera's does: each frame's pixels differ a little.
        yield* Effect.promise(() =>
          run("ffmpeg", [
            "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", `color=c=0x4a6a8a:s=${SOURCE.width}x${SOURCE.height}:r=${RATE},noise=alls=4:allf=t`,
            "-i", heads[0], "-filter_complex", "[1:v]scale=-2:190,loop=-1:1[h];[0:v][h]overlay=x=380:y=170:shortest=1",
            "-t", String(seconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", input
          ]))
        const { samples } = yield* (yield* FaceFinder).find({ input, ...SOURCE, durationSeconds: seconds })
        expect(samples).toHaveLength(seconds)
        expect(samples.every((s) => s.faces.length === 1)).toBe(true)
        // Found at 0.5 s and kept until 5.5 s, when it is looked for again.
        const boxes = samples.map((s) => JSON.stringify(s.faces[0]))
        expect(boxes.slice(0, 5)).toEqual(Array(5).fill(boxes[0]))
        expect(new Set(boxes).size).toBeLessThanOrEqual(2)
      }), 120_000)

    it.effect("cuts to the face's new place at a scene change instead of panning", () =>
      Effect.gen(function*() {
        const seconds = 6
        const input = yield* Effect.promise(() => clip("cut", seconds, [{ picture: 0, x: "if(lt(t,3),60,720)", y: "170" }], 3))
        const { framing, faces } = yield* reframe(input, seconds, { aspectRatio: "9:16", mode: "face" })
        expect(faces.sceneCuts.length).toBe(1)
        expect(faces.sceneCuts[0]).toBeCloseTo(3, 1)
        const moves = windowSteps(framing, seconds).flatMap((step, f) => (Math.abs(step) > 0 ? [{ frame: f + 1, step }] : []))
        expect(moves).toHaveLength(1)
        expect(moves[0]!.frame / RATE).toBeCloseTo(3, 1)
        expect(moves[0]!.step).toBeGreaterThan(400)
      }), 120_000)

    it.effect("frames the centre of a picture without a face", () =>
      Effect.gen(function*() {
        const input = yield* Effect.promise(() => clip("empty", 3, []))
        const { framing, output } = yield* reframe(input, 3, { aspectRatio: "1:1", mode: "face" })
        expect(framing.paths).toEqual([[{ seconds: 0, x: 210, y: 0 }]])
        const frame = yield* Effect.promise(() => readFrame(output, 1, 1080, 1080))
        expect(frame.rgb.length).toBe(1080 * 1080 * 3)
      }), 120_000)
  })

  it.effect("split: two faces far apart, each followed in its own half of the output, the left one on top", () =>
    Effect.gen(function*() {
      const seconds = 5
      const input = yield* Effect.promise(() =>
        clip("two", seconds, [{ picture: 0, x: "60+20*sin(t)", y: "150" }, { picture: 1, x: "700+25*sin(1.3*t)", y: "190" }]))
      const { framing, output } = yield* reframe(input, seconds, { aspectRatio: "9:16", mode: "split" })
      expect(framing.mode).toBe("split")
      expect(framing.paths).toHaveLength(2)
      const seen = (yield* facesIn(output, framing, seconds)).samples
      const halves = seen.map((s) => s.faces.map((f) => (f.y + f.height / 2 < 960 ? "top" : "bottom")).sort().join(","))
      expect(halves.filter((h) => h === "bottom,top").length).toBeGreaterThanOrEqual(seconds - 1)
      // The top window is on the left face, the bottom on the right one.
      expect(windowAt(framing.paths[0]!, 2).x).toBeLessThan(200)
      expect(windowAt(framing.paths[1]!, 2).x).toBeGreaterThan(400)
    }), 120_000)

  it.effect("fit: the whole picture across the output's width, over a blurred copy of it filling the rest", () =>
    Effect.gen(function*() {
      const input = join(dir, "edges.mp4")
      // Red at the left edge, blue at the right one, grey between.
      yield* Effect.promise(() =>
        run("ffmpeg", [
          "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", `color=c=gray:s=${SOURCE.width}x${SOURCE.height}:r=${RATE}`,
          "-vf", "drawbox=x=0:y=0:w=40:h=ih:color=red:t=fill,drawbox=x=iw-40:y=0:w=40:h=ih:color=blue:t=fill",
          "-t", "2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", input
        ]))
      const { framing, output } = yield* reframe(input, 2, { aspectRatio: "9:16", mode: "fit" })
      expect(framing).toMatchObject({ mode: "fit", paths: [] })
      const frame = yield* Effect.promise(() => readFrame(output, 1, 1080, 1920))
      const pixel = (x: number, y: number) => [...frame.rgb.subarray((y * 1080 + x) * 3, (y * 1080 + x) * 3 + 3)]
      // The picture is 1080x608 in the middle: both edges are there.
      const [left, right] = [pixel(10, 960), pixel(1070, 960)]
      expect(left[0]! - left[2]!).toBeGreaterThan(120)
      expect(right[2]! - right[0]!).toBeGreaterThan(120)
      // Above it, the blurred copy of the picture's middle: grey, not a black bar.
      const above = pixel(540, 300)
      expect(Math.min(...above)).toBeGreaterThan(90)
      expect(Math.max(...above) - Math.min(...above)).toBeLessThan(20)
    }), 120_000)
})
