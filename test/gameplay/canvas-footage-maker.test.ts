// Gameplay footage: exact length, size and rate in H.264; moving like a game (not still, not noise); seeded.
import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CanvasFootageMakerLive } from "../../adapters/gameplay/canvas-footage-maker.ts"
import { WorkFailed } from "../../domain/errors.ts"
import type { GameKind } from "../../domain/gameplay.ts"
import { FootageMaker, type FootageRequest } from "../../domain/ports/footage-maker.ts"
import { type Frame, readFrame } from "../support/clips.ts"

const run = promisify(execFile)
const W = 360
const H = 640
const GAMES: ReadonlyArray<GameKind> = ["runner", "racer", "blocks"]

let dir = ""
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "footage-"))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

let files = 0
const make = (request: Partial<FootageRequest> & { game: GameKind }) =>
  Effect.gen(function*() {
    const outputMp4 = request.outputMp4 ?? join(dir, `${files++}.mp4`)
    const maker = yield* FootageMaker
    yield* maker.make({ seed: 1, seconds: 2, width: W, height: H, frameRate: 30, ...request, outputMp4 })
    return outputMp4
  })

const ffprobe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-of", "json", "-count_frames", "-show_format", "-show_streams", path])
  const out = JSON.parse(stdout) as {
    streams: Array<{ codec_type: string; codec_name: string; width: number; height: number; r_frame_rate: string; pix_fmt: string; nb_read_frames: string }>
    format: { duration: string }
  }
  return { streams: out.streams, video: out.streams.find((s) => s.codec_type === "video")!, duration: Number(out.format.duration) }
}

/** Mean absolute difference of two frames' RGB values (0..255). */
const difference = (a: Frame, b: Frame): number => {
  let sum = 0
  for (let i = 0; i < a.rgb.length; i++) sum += Math.abs(a.rgb[i]! - b.rgb[i]!)
  return sum / a.rgb.length
}

const frame = (path: string, t: number) => Effect.promise(() => readFrame(path, t, W, H))

layer(CanvasFootageMakerLive)("CanvasFootageMaker", (it) => {
  describe.each(GAMES)("%s", (game) => {
    it.effect("is exactly the asked length, size and rate: silent H.264 in yuv420p", () =>
      Effect.gen(function*() {
        const progress: Array<number> = []
        const path = yield* make({ game, onProgress: (f) => progress.push(f) })
        const { streams, video, duration } = yield* Effect.promise(() => ffprobe(path))
        expect(streams).toHaveLength(1)
        expect(video).toMatchObject({ codec_name: "h264", width: W, height: H, r_frame_rate: "30/1", pix_fmt: "yuv420p", nb_read_frames: "60" })
        expect(Math.abs(duration - 2)).toBeLessThanOrEqual(1 / 30)
        expect(progress.at(-1)).toBe(1)
        expect(progress).toEqual([...progress].sort((a, b) => a - b))
        expect(progress.length).toBeGreaterThan(10)
      }))

    it.effect("moves like continuous play: frames half a second apart differ, but are nothing like noise", () =>
      Effect.gen(function*() {
        const path = yield* make({ game })
        const frames = yield* Effect.forEach([0, 0.5, 1, 1.5], (t) => frame(path, t))
        const other = yield* frame(yield* make({ game, seed: 2 }), 1)
        for (let i = 1; i < frames.length; i++) {
          const moved = difference(frames[i - 1]!, frames[i]!)
          // Unrelated random pixels differ by about 85.
          expect(moved).toBeGreaterThan(1)
          expect(moved).toBeLessThan(45)
        }
        // Another seed: another game, not the same picture.
        expect(difference(frames[2]!, other)).toBeGreaterThan(3)
      }))

    it.effect("gives the same pixels for the same seed", () =>
      Effect.gen(function*() {
        const a = yield* make({ game, seed: 9, seconds: 1 })
        const b = yield* make({ game, seed: 9, seconds: 1 })
        for (const t of [0, 0.5, 0.9]) {
          const [fa, fb] = yield* Effect.all([frame(a, t), frame(b, t)])
          expect(fa.rgb.equals(fb.rgb)).toBe(true)
        }
      }))
  })

  it.effect("draws big footage small and lets ffmpeg scale it up; 60 fps counts its own frames", () =>
    Effect.gen(function*() {
      const path = yield* make({ game: "racer", seconds: 0.5, width: 720, height: 1280, frameRate: 60 })
      const { video, duration } = yield* Effect.promise(() => ffprobe(path))
      expect(video).toMatchObject({ width: 720, height: 1280, r_frame_rate: "60/1", nb_read_frames: "30" })
      expect(Math.abs(duration - 0.5)).toBeLessThanOrEqual(1 / 60)
    }))

  it.effect("refuses odd sizes and empty lengths, and reports ffmpeg's own error", () =>
    Effect.gen(function*() {
      const odd = yield* Effect.flip(make({ game: "blocks", width: 361 }))
      expect(odd).toBeInstanceOf(WorkFailed)
      expect(odd.message).toContain("361x640")
      const empty = yield* Effect.flip(make({ game: "blocks", seconds: 0 }))
      expect(empty.message).toContain("0 was asked for")
      const unwritable = yield* Effect.flip(make({ game: "blocks", outputMp4: join(dir, "missing", "out.mp4") }))
      expect(unwritable.message).toMatch(/^Making the blocks gameplay footage failed: .*No such file or directory/)
    }))
})
