import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { soundEffectWav } from "../../adapters/media/synth-sound-effects.ts"
import { type AudioCue, MediaEngine } from "../../domain/ports/media-engine.ts"

const run = promisify(execFile)
const RATE = 48_000
/** An MP3 frame: the finest step an MP3's length comes in. */
const MP3_FRAME = 1152
/** Quieter than anything a cue leaves behind: MP3 coding noise around a sound stays well under it. */
const SILENT_DB = -60

let dir = ""
/** 0.2 s of 1 kHz at half scale (lavfi sine is 1/8), at 44.1 kHz (so the mix resamples it). */
let tone = ""
let tick = ""

/** The mix decoded as mono 48 kHz samples. */
const decode = async (path: string): Promise<Float32Array> => {
  const { stdout } = await run("ffmpeg", ["-nostdin", "-v", "error", "-i", path, "-ac", "1", "-ar", String(RATE), "-f", "f32le", "pipe:1"], {
    encoding: "buffer",
    maxBuffer: 64 * 1024 * 1024
  })
  return new Float32Array(stdout.buffer, stdout.byteOffset, stdout.length / 4)
}

/** RMS level of the samples from `from` to `to` seconds, in dBFS (-200 for digital silence). */
const levelDb = (samples: Float32Array, from: number, to: number): number => {
  const [a, b] = [Math.round(from * RATE), Math.round(to * RATE)]
  let sum = 0
  for (let i = a; i < b; i++) sum += samples[i]! ** 2
  const rms = Math.sqrt(sum / (b - a))
  return rms === 0 ? -200 : 20 * Math.log10(rms)
}

const mix = (name: string, cues: ReadonlyArray<AudioCue>, durationSeconds: number) =>
  Effect.gen(function* () {
    const outputMp3 = join(dir, `${name}.mp3`)
    yield* (yield* MediaEngine).mixAudio({ cues, durationSeconds, outputMp3 })
    return yield* Effect.promise(() => decode(outputMp3))
  })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mix-audio-"))
  tone = join(dir, "tone.wav")
  tick = join(dir, "tick.wav")
  await Promise.all([
    run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "sine=f=1000:r=44100:d=0.2", "-af", "volume=4", "-ac", "1", tone]),
    writeFile(tick, soundEffectWav("tick"))
  ])
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

layer(FfmpegEngineLive)("FfmpegEngine.mixAudio", (it) => {
  it.effect("each cue at its time and volume, silence elsewhere, exactly the requested length", () =>
    Effect.gen(function* () {
      const samples = yield* mix("placed", [
        { path: tone, atSeconds: 0.5, volume: 1 },
        { path: tick, atSeconds: 1.25, volume: 1 },
        { path: tone, atSeconds: 2, volume: 0.5 }
      ], 3)
      expect(Math.abs(samples.length - 3 * RATE)).toBeLessThan(MP3_FRAME)
      // -9 dB: a half-scale sine's RMS
      const loud = levelDb(samples, 0.52, 0.68)
      expect(loud).toBeCloseTo(-9, 0)
      expect(levelDb(samples, 2.02, 2.18)).toBeCloseTo(loud - 6, 0)
      expect(levelDb(samples, 1.25, 1.27)).toBeGreaterThan(-25)
      // each tone starts on its time, to the millisecond (the second follows the tick on one lane)
      expect(levelDb(samples, 0.48, 0.499)).toBeLessThan(-40)
      expect(levelDb(samples, 0.501, 0.51)).toBeGreaterThan(-12)
      expect(levelDb(samples, 1.98, 1.999)).toBeLessThan(-40)
      expect(levelDb(samples, 2.001, 2.01)).toBeGreaterThan(-18)
      for (const [from, to] of [[0, 0.47], [0.73, 1.22], [1.32, 1.97], [2.23, 2.98]] as const) {
        expect(levelDb(samples, from, to)).toBeLessThan(SILENT_DB)
      }
    }))

  it.effect("overlapping cues add up, of the same sound or of different ones", () =>
    Effect.gen(function* () {
      const samples = yield* mix("overlapping", [
        { path: tone, atSeconds: 0.3, volume: 1 },
        { path: tone, atSeconds: 0.3, volume: 1 },
        { path: tone, atSeconds: 0.7, volume: 1 },
        { path: tone, atSeconds: 1.1, volume: 0.1 },
        { path: tick, atSeconds: 1.15, volume: 1 }
      ], 1.5)
      // two copies in phase: twice the amplitude
      expect(levelDb(samples, 0.32, 0.48)).toBeCloseTo(levelDb(samples, 0.72, 0.88) + 6, 0)
      // the tick over a quiet tone
      const under = levelDb(samples, 1.12, 1.14)
      expect(under).toBeCloseTo(-29, 0)
      expect(levelDb(samples, 1.15, 1.17)).toBeGreaterThan(under + 6)
      expect(levelDb(samples, 1.2, 1.28)).toBeCloseTo(under, 0)
      for (const [from, to] of [[0.53, 0.67], [0.93, 1.07]] as const) expect(levelDb(samples, from, to)).toBeLessThan(SILENT_DB)
    }))

  it.effect("250 cues of one sound (a quiz's ticks): every one heard, the gaps between them silent", () =>
    Effect.gen(function* () {
      const times = Array.from({ length: 250 }, (_, k) => 0.2 + k * 0.06)
      const samples = yield* mix("ticks", times.map((atSeconds) => ({ path: tick, atSeconds, volume: 0.6 })), 15.5)
      expect(Math.abs(samples.length - 15.5 * RATE)).toBeLessThan(MP3_FRAME)
      const heard = times.filter((t) => levelDb(samples, t, t + 0.02) > -30)
      expect(heard).toEqual(times)
      const quiet = times.filter((t) => levelDb(samples, t + 0.04, t + 0.055) < -45)
      expect(quiet).toEqual(times)
      expect(levelDb(samples, 15.3, 15.5)).toBeLessThan(SILENT_DB)
    }))

  it.effect("no cues: silence lasting the duration; cues after the end are not heard", () =>
    Effect.gen(function* () {
      const none = yield* mix("silence", [], 2.5)
      expect(Math.abs(none.length - 2.5 * RATE)).toBeLessThan(MP3_FRAME)
      expect(none.every((x) => x === 0)).toBe(true)
      const late = yield* mix("late", [{ path: tone, atSeconds: 2.5, volume: 1 }], 2.5)
      expect(Math.abs(late.length - 2.5 * RATE)).toBeLessThan(MP3_FRAME)
      expect(late.every((x) => x === 0)).toBe(true)
    }))

  it.effect("a missing sound fails with WorkFailed naming it", () =>
    Effect.gen(function* () {
      const missing = join(dir, "missing.wav")
      const error = yield* Effect.flip(mix("never", [{ path: missing, atSeconds: 0, volume: 1 }], 1))
      expect(error._tag).toBe("WorkFailed")
      expect(error.message).toContain(missing)
    }))
})
