// The caption removal's check reads frames the wipe kept as it encoded (`samples`), not the decoded
// result: those frames are the wiped picture, at the detector's size, and scan exactly as the picture
// they were taken from would; or only the strips of it where text was wiped, stacked, at that scale.
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { OnnxTextDetectorLive } from "../../adapters/media/onnx-text-detector.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import { TextDetector } from "../../domain/ports/text-detector.ts"
import { checkStrips, fromStrips, sampledSize } from "../../domain/removal-check.ts"
import type { DetectedBox, PixelBox, TextRegion } from "../../domain/text-regions.ts"

const run = promisify(execFile)

const W = 540
const H = 960
const SECONDS = 4
const FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

let dir = ""
let source = ""

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "check-frames-"))
  source = join(dir, "texted.mp4")
  const text = [
    `drawtext=fontfile=${FONT}:text='@mywatermark':fontsize=22:fontcolor=white:borderw=2:x=24:y=40`,
    `drawtext=fontfile=${FONT}:text='A CAPTION HERE':fontsize=30:fontcolor=white:borderw=3:x=(w-tw)/2:y=h-220`
  ].join(",")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `gradients=s=${W}x${H}:r=30:c0=0x3050a0:c1=0xe0a060:speed=0.02:seed=3:d=${SECONDS}`,
    "-vf", `${text},format=yuv420p`, "-c:v", "libx264", "-preset", "ultrafast", "-crf", "16", source
  ])
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

const scanRequest = (input: string) => ({ input, width: W, height: H, durationSeconds: SECONDS, samplesPerSecond: 1, minScore: 0.5 })

const overlaps = (box: DetectedBox, area: PixelBox) =>
  box.x < area.x + area.width && area.x < box.x + box.width && box.y < area.y + area.height && area.y < box.y + box.height

const framesOf = async (path: string) => {
  const { stdout } = await run("ffprobe", [
    "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "json", path
  ])
  return (JSON.parse(stdout) as { streams: Array<{ codec_name: string; width: number; height: number; nb_read_frames: string }> }).streams[0]
}

layer(Layer.merge(FfmpegEngineLive, OnnxTextDetectorLive), { timeout: "180 seconds" })("the wipe's samples for the check", (it) => {
  it.effect("are the picture at the detector's size, one a second, and scan exactly as the picture itself", () =>
    Effect.gen(function*() {
      const detector = yield* TextDetector
      const size = detector.frameSize(W, H)
      expect(size).toEqual({ width: 360, height: 640 })
      const samples = join(dir, "nothing-wiped.nut")
      // Nothing wiped: the picture encoded is the source's.
      yield* (yield* MediaEngine).wipeRegions({
        input: source,
        output: join(dir, "nothing-wiped.mp4"),
        regions: [],
        samples: { output: samples, perSecond: 1, ...size }
      })
      expect(yield* Effect.promise(() => framesOf(samples))).toEqual({ codec_name: "ffv1", width: 360, height: 640, nb_read_frames: String(SECONDS) })
      const fromSamples = yield* detector.scan(scanRequest(samples))
      const fromSource = yield* detector.scan(scanRequest(source))
      expect(fromSamples.map((s) => s.atSeconds)).toEqual([0.5, 1.5, 2.5, 3.5])
      expect(fromSamples.every((s) => s.boxes.length >= 2)).toBe(true)
      expect(fromSamples).toEqual(fromSource)
    }))

  it.effect("show the picture as wiped: the wiped watermark is gone from them, the caption left alone is not; so do strips of them", () =>
    Effect.gen(function*() {
      const detector = yield* TextDetector
      const [first] = yield* detector.scan({ ...scanRequest(source), minScore: 0.8 })
      const found = first!.boxes.find((b) => b.y < 150)!
      const caption = first!.boxes.find((b) => b.y > H / 2)!
      const pad = 8
      const box = {
        x: Math.floor(found.x) - pad,
        y: Math.floor(found.y) - pad,
        width: Math.ceil(found.width) + 2 * pad,
        height: Math.ceil(found.height) + 2 * pad
      }
      const watermark: TextRegion = { kind: "watermark", box, startSeconds: 0, endSeconds: SECONDS, score: found.score }
      const samples = join(dir, "watermark-wiped.nut")
      yield* (yield* MediaEngine).wipeRegions({
        input: source,
        output: join(dir, "watermark-wiped.mp4"),
        regions: [watermark],
        samples: { output: samples, perSecond: 1, ...detector.frameSize(W, H) }
      })
      const checked = yield* detector.scan(scanRequest(samples))
      expect(checked).toHaveLength(SECONDS)
      for (const sample of checked) {
        expect(sample.boxes.filter((b) => overlaps(b, box))).toEqual([])
        expect(sample.boxes.some((b) => overlaps(b, caption))).toBe(true)
      }

      // Kept as strips (the wiped watermark's and the caption's areas) at the scale of the whole picture's
      // samples: the boxes found on them, put back, are where the whole picture's were.
      const stack = checkStrips([box, caption], W, H)!
      const scale = detector.frameSize(W, H).width / W
      const sampled = sampledSize(stack, scale)
      const strips = join(dir, "strips.nut")
      yield* (yield* MediaEngine).wipeRegions({
        input: source,
        output: join(dir, "strips.mp4"),
        regions: [watermark],
        samples: { output: strips, perSecond: 1, ...sampled, strips: stack }
      })
      expect(yield* Effect.promise(() => framesOf(strips))).toEqual({ codec_name: "ffv1", ...sampled, nb_read_frames: String(SECONDS) })
      const fromStack = yield* detector.scan({ ...scanRequest(strips), ...sampled })
      expect(fromStack.map((s) => s.atSeconds)).toEqual(checked.map((s) => s.atSeconds))
      for (const [i, sample] of fromStack.entries()) {
        const placed = sample.boxes.flatMap((b) => fromStrips(stack, sampled, b) ?? [])
        expect(placed.filter((b) => overlaps(b, box))).toEqual([])
        const whole = checked[i]!.boxes.find((b) => overlaps(b, caption))!
        const found = placed.find((b) => overlaps(b, caption))!
        expect(Math.abs(found.x - whole.x)).toBeLessThan(8)
        expect(Math.abs(found.y - whole.y)).toBeLessThan(8)
      }
    }))
})
