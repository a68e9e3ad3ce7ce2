import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf } from "../../domain/captions.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import type { FrameRate, RenderFormat } from "../../domain/rules.ts"
import { bandDifference, type Frame, makeSpokenClip, readFrame, readWavFormat, type SpokenClip } from "../support/clips.ts"

const run = promisify(execFile)
const W = 360
const H = 640
/** Bold pop (the default template) sits in the middle of the picture. */
const BOLD_POP = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style
const CAPTION_BAND = { top: 250, bottom: 390 }
const WHOLE = { top: 0, bottom: H }

let dir = ""
let clip: SpokenClip
/** 1 s of picture without audio. */
let mute = ""

const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])

interface ProbedStream {
  readonly codec_type: string
  readonly codec_name: string
  readonly pix_fmt?: string
  readonly width?: number
  readonly height?: number
  readonly r_frame_rate: string
  readonly nb_frames?: string
}

const ffprobe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-of", "json", "-show_format", "-show_streams", path])
  const out = JSON.parse(stdout) as { streams: Array<ProbedStream>; format: { duration: string } }
  return {
    video: out.streams.find((s) => s.codec_type === "video")!,
    audio: out.streams.find((s) => s.codec_type === "audio"),
    duration: Number(out.format.duration)
  }
}

/** Top-level MP4 box types in file order. */
const topLevelBoxes = async (path: string): Promise<Array<string>> => {
  const file = await readFile(path)
  const boxes: Array<string> = []
  for (let offset = 0; offset + 8 <= file.length; ) {
    const size = file.readUInt32BE(offset)
    boxes.push(file.toString("ascii", offset + 4, offset + 8))
    const length = size === 1 ? Number(file.readBigUInt64BE(offset + 8)) : size === 0 ? file.length - offset : size
    offset += length
  }
  return boxes
}

const mid = (word: { start: number; end: number }) => (word.start + word.end) / 2

/** Share of pixels in a band that are not the greenscreen colour. */
const notGreen = (frame: Frame, band: { top: number; bottom: number }): number => {
  let other = 0
  for (let i = band.top * frame.width * 3; i < band.bottom * frame.width * 3; i += 3) {
    const [r, g, b] = [frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!]
    if (r > 24 || g < 231 || b > 24) other++
  }
  return other / ((band.bottom - band.top) * frame.width)
}

const burn = (options: { format: RenderFormat; frameRate: FrameRate; name: string; onProgress?: (f: number) => void }) =>
  Effect.gen(function* () {
    const engine = yield* MediaEngine
    const output = join(dir, `${options.name}.mp4`)
    const pages = layoutCaptions(clip.words, layoutRulesOf(BOLD_POP))
    yield* engine.burnCaptions({
      input: clip.path,
      output,
      captions: { pages, style: BOLD_POP },
      format: options.format,
      frameRate: options.frameRate,
      width: W,
      height: H,
      ...(options.onProgress ? { onProgress: options.onProgress } : {})
    })
    return { output, pages }
  })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ffmpeg-engine-"))
  clip = await makeSpokenClip({
    text: "Captions make every video easier to follow.",
    width: W,
    height: H,
    fps: 30,
    silenceBefore: 1.5,
    silenceAfter: 1.2,
    dir
  })
  mute = join(dir, "mute.mp4")
  await ffmpeg("-f", "lavfi", "-i", `testsrc2=s=${W}x${H}:r=30:d=1`, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", mute)
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

layer(FfmpegEngineLive)("FfmpegEngine", (it) => {
  describe("probe", () => {
    it.effect("reports duration, display size, frame rate, streams and bytes", () =>
      Effect.gen(function* () {
        const facts = yield* (yield* MediaEngine).probe(clip.path)
        expect(facts.durationSeconds).toBeCloseTo(clip.durationSeconds, 1)
        expect([facts.width, facts.height, facts.frameRate]).toEqual([W, H, 30])
        expect([facts.hasVideo, facts.hasAudio]).toEqual([true, true])
        expect(facts.bytes).toBe((yield* Effect.promise(() => stat(clip.path))).size)
      }))

    it.effect("swaps width and height of a clip rotated by its display matrix", () =>
      Effect.gen(function* () {
        const rotated = join(dir, "rotated.mp4")
        yield* Effect.promise(() => ffmpeg("-i", mute, "-c", "copy", "-metadata:s:v", "rotate=90", rotated))
        const facts = yield* (yield* MediaEngine).probe(rotated)
        expect([facts.width, facts.height]).toEqual([H, W])
      }))

    it.effect("reports a video without audio", () =>
      Effect.gen(function* () {
        const facts = yield* (yield* MediaEngine).probe(mute)
        expect([facts.hasVideo, facts.hasAudio]).toEqual([true, false])
        expect(facts.durationSeconds).toBeCloseTo(1, 1)
      }))

    it.effect("does not count cover art as video", () =>
      Effect.gen(function* () {
        const cover = join(dir, "cover.png")
        const song = join(dir, "song.mp3")
        yield* Effect.promise(async () => {
          await ffmpeg("-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", cover)
          await ffmpeg("-f", "lavfi", "-i", "sine=d=1", "-i", cover, "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame",
            "-c:v", "png", "-disposition:v", "attached_pic", song)
        })
        const facts = yield* (yield* MediaEngine).probe(song)
        expect([facts.hasVideo, facts.hasAudio]).toEqual([false, true])
        // the cover really is there as a video stream
        expect((yield* Effect.promise(() => ffprobe(song))).video).toBeDefined()
      }))

    it.effect("fails with WorkFailed on a file that is not media", () =>
      Effect.gen(function* () {
        const junk = join(dir, "junk.bin")
        yield* Effect.promise(() => writeFile(junk, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251))))
        const error = yield* Effect.flip((yield* MediaEngine).probe(junk))
        expect(error._tag).toBe("WorkFailed")
        expect(error.message).toMatch(/^The source is not a media file ffprobe can read: \S/)
        expect(error.message).not.toContain(junk)
      }))
  })

  it.effect("extractAudio writes 16 kHz mono 16-bit WAV of the whole clip", () =>
    Effect.gen(function* () {
      const wav = join(dir, "speech16k.wav")
      yield* (yield* MediaEngine).extractAudio(clip.path, wav)
      const format = yield* Effect.promise(() => readWavFormat(wav))
      expect([format.sampleRate, format.channels, format.bitsPerSample]).toEqual([16000, 1, 16])
      expect(format.durationSeconds).toBeCloseTo(clip.durationSeconds, 1)
    }))

  it.effect("extractAudio fails with WorkFailed when there is no audio", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip((yield* MediaEngine).extractAudio(mute, join(dir, "none.wav")))
      expect(error.message).toBe("The source has no audio track to transcribe.")
    }))

  describe("burnCaptions", () => {
    it.effect("standard: one H.264/AAC faststart encode whose captions follow the spoken words", () =>
      Effect.gen(function* () {
        const progress: Array<number> = []
        const { output, pages } = yield* burn({ format: "standard", frameRate: 30, name: "standard", onProgress: (f) => progress.push(f) })
        const probed = yield* Effect.promise(() => ffprobe(output))
        expect(probed.duration).toBeCloseTo(clip.durationSeconds, 1)
        expect([probed.video.codec_name, probed.video.pix_fmt, probed.video.width, probed.video.height]).toEqual(["h264", "yuv420p", W, H])
        expect(probed.video.r_frame_rate).toBe("30/1")
        expect(probed.audio?.codec_name).toBe("aac")
        const boxes = yield* Effect.promise(() => topLevelBoxes(output))
        expect(boxes.indexOf("moov")).toBeGreaterThanOrEqual(0)
        expect(boxes.indexOf("moov")).toBeLessThan(boxes.indexOf("mdat"))

        expect(progress.length).toBeGreaterThan(0)
        expect(progress.every((f, i) => f >= 0 && f <= 1 && f >= (progress[i - 1] ?? 0))).toBe(true)
        expect(progress[progress.length - 1]).toBe(1)

        const [first, second] = pages[0]!.lines.flatMap((l) => l.words)
        const frames = yield* Effect.promise(() =>
          Promise.all(
            [mid(first!), mid(second!), 0.6, clip.durationSeconds - 0.4].flatMap((t) => [
              readFrame(clip.path, t, W, H),
              readFrame(output, t, W, H)
            ])
          )
        )
        const [srcFirst, outFirst, srcSecond, outSecond, srcBefore, outBefore, srcAfter, outAfter] = frames
        // captions are drawn while words are spoken...
        expect(bandDifference(srcFirst!, outFirst!, CAPTION_BAND)).toBeGreaterThan(0.03)
        expect(bandDifference(srcSecond!, outSecond!, CAPTION_BAND)).toBeGreaterThan(0.03)
        // ...the highlight moves from one word to the next (the source picture is still)...
        expect(bandDifference(outFirst!, outSecond!, CAPTION_BAND)).toBeGreaterThan(0.02)
        // ...and the silences before and after the speech are left clean
        expect(bandDifference(srcBefore!, outBefore!, WHOLE)).toBeLessThan(0.001)
        expect(bandDifference(srcAfter!, outAfter!, WHOLE)).toBeLessThan(0.001)
        // outside the caption band the picture is the source's
        expect(bandDifference(srcFirst!, outFirst!, { top: 0, bottom: CAPTION_BAND.top })).toBeLessThan(0.001)
      }))

    it.effect("greenscreen: solid #00FF00 with the captions on top, audio kept", () =>
      Effect.gen(function* () {
        const { output, pages } = yield* burn({ format: "greenscreen", frameRate: 30, name: "green" })
        const probed = yield* Effect.promise(() => ffprobe(output))
        expect(probed.duration).toBeCloseTo(clip.durationSeconds, 1)
        expect(probed.audio?.codec_name).toBe("aac")
        const [first, second] = pages[0]!.lines.flatMap((l) => l.words)
        const [silent, a, b] = yield* Effect.promise(() =>
          Promise.all([0.6, mid(first!), mid(second!)].map((t) => readFrame(output, t, W, H)))
        )
        expect(notGreen(silent!, WHOLE)).toBeLessThan(0.001)
        expect(notGreen(a!, { top: 0, bottom: CAPTION_BAND.top })).toBeLessThan(0.001)
        expect(notGreen(a!, CAPTION_BAND)).toBeGreaterThan(0.03)
        expect(bandDifference(a!, b!, CAPTION_BAND)).toBeGreaterThan(0.02)
      }))

    it.effect("60 fps output has 60 frames a second", () =>
      Effect.gen(function* () {
        const { output } = yield* burn({ format: "standard", frameRate: 60, name: "sixty" })
        const probed = yield* Effect.promise(() => ffprobe(output))
        expect(probed.video.r_frame_rate).toBe("60/1")
        expect(Number(probed.video.nb_frames)).toBeGreaterThanOrEqual(Math.floor(clip.durationSeconds * 60) - 2)
        expect(Number(probed.video.nb_frames)).toBeLessThanOrEqual(Math.ceil(clip.durationSeconds * 60) + 2)
      }))

    it.effect("makes odd dimensions even, follows a rotated source's display orientation, writes to any path", () =>
      Effect.gen(function* () {
        const engine = yield* MediaEngine
        const rotated = join(dir, "rotated-source.mp4")
        const output = join(dir, "it's, [odd]; a:b\\c.mp4")
        yield* Effect.promise(() => ffmpeg("-i", mute, "-c", "copy", "-metadata:s:v", "rotate=90", rotated))
        const captions = { pages: [], style: BOLD_POP }
        yield* engine.burnCaptions({ input: rotated, output, captions, format: "standard", frameRate: 30, width: 641, height: 359 })
        const probed = yield* Effect.promise(() => ffprobe(output))
        expect([probed.video.width, probed.video.height]).toEqual([640, 358])
        expect(probed.audio).toBeUndefined()
      }))

    it.effect("fails with WorkFailed naming ffmpeg's complaint", () =>
      Effect.gen(function* () {
        const audioOnly = join(dir, "audio-only.m4a")
        yield* Effect.promise(() => ffmpeg("-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", audioOnly))
        const error = yield* Effect.flip(
          (yield* MediaEngine).burnCaptions({
            input: audioOnly,
            output: join(dir, "never.mp4"),
            captions: { pages: [], style: BOLD_POP },
            format: "standard",
            frameRate: 30,
            width: W,
            height: H
          })
        )
        expect(error._tag).toBe("WorkFailed")
        expect(error.message).toMatch(/^Burning the captions failed: .*(stream|matches)/i)
      }))
  })

  describe("thumbnail", () => {
    const isJpeg = (path: string) => readFile(path).then((b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff)

    it.effect("writes one jpg frame, at most 720 px wide, even past the end of the video", () =>
      Effect.gen(function* () {
        const engine = yield* MediaEngine
        const wide = join(dir, "wide.mp4")
        yield* Effect.promise(() =>
          ffmpeg("-f", "lavfi", "-i", "testsrc2=s=1280x720:r=30:d=1", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", wide)
        )
        const small = join(dir, "small.jpg")
        const large = join(dir, "large.jpg")
        yield* engine.thumbnail(clip.path, small, 2)
        yield* engine.thumbnail(wide, large, 999)
        expect(yield* Effect.promise(() => isJpeg(small))).toBe(true)
        expect(yield* Effect.promise(() => isJpeg(large))).toBe(true)
        const [s, l] = yield* Effect.promise(() => Promise.all([ffprobe(small), ffprobe(large)]))
        expect([s.video.codec_name, s.video.width, s.video.height]).toEqual(["mjpeg", W, H])
        expect([l.video.width, l.video.height]).toEqual([720, 406])
      }))
  })
})
