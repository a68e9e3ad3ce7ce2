// The probe bounds what decoding may cost: a picture above the largest any kind may have is refused
// by the decoder's pixel cap (never decoded), a still picture is told from a moving one, and a file
// whose container reads but whose picture does not decode is refused.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])

let dir = ""
const path = (name: string) => join(dir, name)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ffmpeg-probe-"))
  const x264 = ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "51", "-pix_fmt", "yuv420p"]
  await Promise.all([
    // A few KB each, however many pixels they hold.
    ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=8192x8192:r=1:d=1", ...x264, path("huge.mp4")),
    ffmpeg("-f", "lavfi", "-i", "color=c=white:s=16000x16000", "-frames:v", "1", "-pix_fmt", "monob", path("huge.png")),
    ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=4200x2000:r=240:d=0.1", ...x264, path("wide-fast.mp4")),
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=1", ...x264, path("small.mp4")),
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path("still.png")),
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", path("still.jpg"))
  ])
  // The container intact, the coded picture overwritten: ffprobe reads it, nothing decodes it.
  const clip = await readFile(path("small.mp4"))
  const mdat = clip.indexOf("mdat")
  const moov = clip.indexOf("moov")
  for (let i = mdat + 4; i < (moov > mdat ? moov : clip.length); i++) clip[i] = (i * 7919) % 251
  await writeFile(path("garbled.mp4"), clip)
}, 60_000)

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

layer(FfmpegEngineLive)("FfmpegEngine.probe", (it) => {
  describe("pixel cap", () => {
    it.effect("refuses an 8192x8192 clip and a 16000x16000 png, naming their size and the limits", () =>
      Effect.gen(function* () {
        const engine = yield* MediaEngine
        for (const [name, size] of [["huge.mp4", "8192x8192"], ["huge.png", "16000x16000"]] as const) {
          const error = yield* Effect.flip(engine.probe(path(name)))
          expect(error._tag).toBe("WorkFailed")
          expect(error.message).toContain(`is ${size} pixels, too large to decode`)
          expect(error.message).toContain("a video or gif may be at most 4096 pixels on a side and 8.9 megapixels, a still image 8192 and 40")
        }
      }))

    it.effect("reports a picture under the cap as it is, for the caller's limits to judge", () =>
      Effect.gen(function* () {
        const facts = yield* (yield* MediaEngine).probe(path("wide-fast.mp4"))
        expect([facts.width, facts.height, facts.frameRate, facts.still]).toEqual([4200, 2000, 240, false])
      }))
  })

  it.effect("tells a still picture from a moving one", () =>
    Effect.gen(function* () {
      const engine = yield* MediaEngine
      expect((yield* engine.probe(path("still.png"))).still).toBe(true)
      expect((yield* engine.probe(path("still.jpg"))).still).toBe(true)
      expect((yield* engine.probe(path("small.mp4"))).still).toBe(false)
    }))

  it.effect("refuses a file whose container reads but whose picture does not decode", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip((yield* MediaEngine).probe(path("garbled.mp4")))
      expect(error._tag).toBe("WorkFailed")
      expect(error.message).toMatch(/^The picture in the file cannot be decoded \(.+\); re-encode it/)
      expect(error.message).not.toContain(dir)
    }))
})
