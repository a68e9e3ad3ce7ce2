import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FfmpegTimelineRendererLive } from "../../adapters/media/ffmpeg-timeline-renderer.ts"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf, type TimedWord } from "../../domain/captions.ts"
import { TimelineRenderer } from "../../domain/ports/timeline-renderer.ts"
import { type NarrationSpan, scenesForWords, type Timeline, timelineDuration } from "../../domain/timeline.ts"
import { bandDifference, type Frame, readFrame } from "../support/clips.ts"
import { speak } from "../support/festival.ts"

const run = promisify(execFile)
const W = 360
const H = 640
const TEXT = "A picture moves across the screen. Then a calm colour fills the frame. Now a short clip plays."
/** Bold pop (the default template) sits in the middle of the picture. */
const BOLD_POP = BUILT_IN_TEMPLATES.find((t) => t.id === -1)!.style
const CAPTION_BAND = { top: 250, bottom: 390 }
const ABOVE_CAPTIONS = { top: 0, bottom: CAPTION_BAND.top }
const CALM = [0x33, 0x66, 0xcc] as const
const GREEN = [0, 255, 0] as const

let dir = ""
let words: ReadonlyArray<TimedWord> = []
let spans: ReadonlyArray<NarrationSpan> = []
let narration = ""
let picture = ""
let clip = ""

const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])

const ffprobe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-of", "json", "-show_format", "-show_streams", path])
  const out = JSON.parse(stdout) as {
    streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number; r_frame_rate: string; nb_frames?: string; duration?: string; pix_fmt?: string }>
    format: { duration: string }
  }
  return {
    video: out.streams.find((s) => s.codec_type === "video")!,
    audio: out.streams.find((s) => s.codec_type === "audio"),
    duration: Number(out.format.duration)
  }
}

/** Loudest sample of the audio track, in dB (-91 for digital silence). */
const maxVolume = async (path: string): Promise<number> => {
  const { stderr } = await run("ffmpeg", ["-nostdin", "-v", "info", "-i", path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"])
  return Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1] ?? NaN)
}

interface Region {
  readonly top: number
  readonly bottom: number
  readonly left?: number
  readonly right?: number
}

/** Share of a region's pixels within `tolerance` of a colour in every channel. */
const share = (frame: Frame, region: Region, rgb: readonly [number, number, number], tolerance = 24): number => {
  const [left, right] = [region.left ?? 0, region.right ?? frame.width]
  let near = 0
  for (let y = region.top; y < region.bottom; y++) {
    for (let x = left; x < right; x++) {
      const i = (y * frame.width + x) * 3
      if ([0, 1, 2].every((c) => Math.abs(frame.rgb[i + c]! - rgb[c]!) <= tolerance)) near++
    }
  }
  return near / ((region.bottom - region.top) * (right - left))
}

const mid = (word: TimedWord) => (word.start + word.end) / 2
/** Festival drops punctuation; the text's own words carry it, and the sentence ends scenes are cut at. */
const punctuated = (timed: ReadonlyArray<TimedWord>, text: string): ReadonlyArray<TimedWord> => {
  const written = text.split(" ")
  if (written.length !== timed.length) throw new Error(`festival spoke ${timed.length} words of ${written.length}`)
  return timed.map((w, i) => ({ ...w, text: written[i]! }))
}

/** Image zooming in, a still colour, a looping clip faded in: one sentence each, captioned. */
const narrated = (format: Timeline["format"]): Timeline => {
  const [first, second, third] = spans
  return {
    width: W,
    height: H,
    frameRate: 30,
    format,
    background: "#000000",
    scenes: [
      { durationSeconds: first!.durationSeconds, visual: { _tag: "Image", path: picture, motion: "zoom-in" }, overlays: [] },
      { durationSeconds: second!.durationSeconds, visual: { _tag: "Colour", hex: "#3366CC" }, overlays: [], transition: "cut" },
      {
        durationSeconds: third!.durationSeconds,
        visual: { _tag: "Video", path: clip, loop: true, startSeconds: 0.5 },
        overlays: [],
        transition: "fade"
      }
    ],
    narration: { path: narration, words },
    captions: { pages: layoutCaptions(words, layoutRulesOf(BOLD_POP)), style: BOLD_POP },
    music: null
  }
}

const render = (timeline: Timeline, name: string, onProgress?: (fraction: number) => void) =>
  Effect.gen(function* () {
    const output = join(dir, `${name}.mp4`)
    yield* (yield* TimelineRenderer).render({ timeline, output, workDir: join(dir, name), ...(onProgress ? { onProgress } : {}) })
    return output
  })

const frames = (path: string, times: ReadonlyArray<number>, width = W, height = H) =>
  Effect.promise(() => Promise.all(times.map((t) => readFrame(path, t, width, height))))

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "timeline-renderer-"))
  picture = join(dir, "picture.png")
  clip = join(dir, "clip.mp4")
  const [speech] = await Promise.all([
    speak(TEXT, dir),
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=480x640", "-frames:v", "1", picture),
    ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=2", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", clip)
  ])
  narration = speech.wavPath
  words = punctuated(speech.words, TEXT)
  spans = scenesForWords(words, 3)
  if (spans.length !== 3) throw new Error("expected a scene per sentence")
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

layer(FfmpegTimelineRendererLive)("FfmpegTimelineRenderer", (it) => {
  it.effect("standard: scenes in order, captions on the spoken words, narration, exact length and progress", () =>
    Effect.gen(function* () {
      const timeline = narrated("standard")
      const progress: Array<number> = []
      const output = yield* render(timeline, "standard", (f) => progress.push(f))
      const duration = timelineDuration(timeline)
      const probed = yield* Effect.promise(() => ffprobe(output))
      expect(probed.duration).toBeCloseTo(duration, 1)
      expect([probed.video.codec_name, probed.video.pix_fmt, probed.video.width, probed.video.height]).toEqual(["h264", "yuv420p", W, H])
      expect(probed.video.r_frame_rate).toBe("30/1")
      expect(Math.abs(Number(probed.video.nb_frames) - duration * 30)).toBeLessThanOrEqual(1)
      expect(probed.audio?.codec_name).toBe("aac")
      expect(Number(probed.audio?.duration)).toBeCloseTo(duration, 1)
      expect(yield* Effect.promise(() => maxVolume(output))).toBeGreaterThan(-30)

      expect(progress.length).toBeGreaterThan(0)
      expect(progress.every((f, i) => f >= 0 && f <= 1 && f >= (progress[i - 1] ?? 0))).toBe(true)
      expect(progress[progress.length - 1]).toBe(1)

      const [image, colour, video] = spans
      const calm = words.find((w) => w.text === "calm")!
      const fills = words.find((w) => w.text === "fills")!
      const videoStart = video!.startSeconds + 0.6
      const [imageStart, imageEnd, atCalm, atFills, videoA, videoB] = yield* frames(output, [
        0.1, image!.durationSeconds - 0.1, mid(calm), mid(fills), videoStart, videoStart + 0.5
      ])
      // the picture zooms in...
      expect(bandDifference(imageStart!, imageEnd!, ABOVE_CAPTIONS)).toBeGreaterThan(0.1)
      // ...the colour scene is the colour, and its caption band changes from word to word...
      expect(colour!.words).toContain(calm)
      expect(share(atCalm!, ABOVE_CAPTIONS, CALM)).toBeGreaterThan(0.99)
      expect(share(atCalm!, CAPTION_BAND, CALM)).toBeLessThan(0.97)
      expect(bandDifference(atCalm!, atFills!, CAPTION_BAND)).toBeGreaterThan(0.02)
      expect(bandDifference(atCalm!, atFills!, ABOVE_CAPTIONS)).toBeLessThan(0.001)
      // ...and the clip plays
      expect(share(videoA!, ABOVE_CAPTIONS, CALM)).toBeLessThan(0.2)
      expect(bandDifference(videoA!, videoB!, ABOVE_CAPTIONS)).toBeGreaterThan(0.01)
    }))

  it.effect("greenscreen: every scene solid #00FF00, captions on top, narration kept", () =>
    Effect.gen(function* () {
      const timeline = narrated("greenscreen")
      const output = yield* render(timeline, "green")
      const probed = yield* Effect.promise(() => ffprobe(output))
      expect(probed.duration).toBeCloseTo(timelineDuration(timeline), 1)
      expect(probed.audio?.codec_name).toBe("aac")
      const picture = words.find((w) => w.text === "picture")!
      const calm = words.find((w) => w.text === "calm")!
      const clipWord = words.find((w) => w.text === "clip")!
      const shots = yield* frames(output, [mid(picture), mid(calm), mid(clipWord)])
      shots.forEach((shot) => {
        expect(share(shot, ABOVE_CAPTIONS, GREEN)).toBeGreaterThan(0.999)
        expect(share(shot, { top: CAPTION_BAND.bottom, bottom: H }, GREEN)).toBeGreaterThan(0.999)
        expect(share(shot, CAPTION_BAND, GREEN)).toBeLessThan(0.97)
      })
    }))

  it.effect("60 fps 1:1 with a split screen, a fade, text and image overlays, and music alone", () =>
    Effect.gen(function* () {
      const size = 360
      const [red, blue, logo, music] = ["red.png", "blue.mp4", "logo.png", "music.m4a"].map((name) => join(dir, name))
      yield* Effect.promise(() =>
        Promise.all([
          ffmpeg("-f", "lavfi", "-i", "color=c=red:s=200x300", "-frames:v", "1", red!),
          ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=320x240:r=25:d=0.4", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", blue!),
          ffmpeg("-f", "lavfi", "-i", "color=c=yellow:s=40x40", "-frames:v", "1", logo!),
          ffmpeg("-f", "lavfi", "-i", "sine=f=440:d=0.5", "-c:a", "aac", music!)
        ])
      )
      const timeline: Timeline = {
        width: size,
        height: size,
        frameRate: 60,
        format: "standard",
        background: "#000000",
        scenes: [
          {
            durationSeconds: 1.2,
            // the clip is shorter than the scene: its last frame holds
            visual: { _tag: "Split", top: { _tag: "Image", path: red!, motion: "none" }, bottom: { _tag: "Video", path: blue!, loop: false, startSeconds: 0 } },
            overlays: []
          },
          {
            durationSeconds: 1,
            visual: { _tag: "Colour", hex: "#202020" },
            overlays: [
              { _tag: "Text", text: "Hello 100%", position: "top", fontSizeRatio: 0.08, color: "#FFFFFF" },
              { _tag: "Image", path: logo!, x: 0.7, y: 0.7, width: 0.2 }
            ],
            transition: "fade"
          }
        ],
        narration: null,
        captions: null,
        music: { path: music!, volume: 0.5 }
      }
      const output = yield* render(timeline, "square")
      const probed = yield* Effect.promise(() => ffprobe(output))
      expect(probed.duration).toBeCloseTo(2.2, 1)
      expect([probed.video.width, probed.video.height, probed.video.r_frame_rate]).toEqual([size, size, "60/1"])
      expect(Math.abs(Number(probed.video.nb_frames) - 132)).toBeLessThanOrEqual(1)
      expect(Number(probed.audio?.duration)).toBeCloseTo(2.2, 1)
      // the 0.5 s tone (-18 dB, at half volume) loops to the end
      const { stderr } = yield* Effect.promise(() =>
        run("ffmpeg", ["-nostdin", "-v", "info", "-ss", "1.8", "-i", output, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"])
      )
      expect(Number(/max_volume: (-?[\d.]+) dB/.exec(stderr)?.[1])).toBeGreaterThan(-30)

      const [split, fading, last] = yield* frames(output, [0.9, 1.45, 2.0], size, size)
      expect(share(split!, { top: 0, bottom: 170 }, [255, 0, 0], 40)).toBeGreaterThan(0.99)
      expect(share(split!, { top: 190, bottom: size }, [0, 0, 255], 40)).toBeGreaterThan(0.99)
      // halfway through the fade the top half is neither red nor the next scene's grey
      const r = fading!.rgb[(40 * size + 180) * 3]!
      expect(r).toBeGreaterThan(80)
      expect(r).toBeLessThan(200)
      expect(share(last!, { top: 252, bottom: 324, left: 252, right: 324 }, [255, 255, 0], 40)).toBeGreaterThan(0.95)
      expect(share(last!, { top: 20, bottom: 80 }, [0x20, 0x20, 0x20])).toBeLessThan(0.95)
      expect(share(last!, { top: 100, bottom: 240 }, [0x20, 0x20, 0x20])).toBeGreaterThan(0.99)
    }))

  it.effect("fails with WorkFailed naming ffmpeg's complaint", () =>
    Effect.gen(function* () {
      const timeline: Timeline = {
        ...narrated("standard"),
        scenes: [{ durationSeconds: 1, visual: { _tag: "Image", path: join(dir, "missing.png"), motion: "zoom-out" }, overlays: [] }]
      }
      const error = yield* Effect.flip(render(timeline, "never"))
      expect(error._tag).toBe("WorkFailed")
      expect(error.message).toMatch(/^Rendering the video failed: .*No such file/)
    }))
})

