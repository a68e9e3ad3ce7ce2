import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SynthSoundEffectsLive } from "../../adapters/media/synth-sound-effects.ts"
import { SoundEffects } from "../../domain/ports/sound-effects.ts"
import { SOUND_EFFECTS, type SoundEffect } from "../../domain/sound-effects.ts"
import { readWavFormat } from "../support/clips.ts"

const RATE = 48_000
let dir = ""

/** Samples of a 44-byte-header mono 16-bit WAV, in -1..1. */
const samplesOf = (wav: Buffer): Float64Array => {
  const out = new Float64Array((wav.length - 44) / 2)
  for (let i = 0; i < out.length; i++) out[i] = wav.readInt16LE(44 + i * 2) / 32768
  return out
}

const window = (samples: Float64Array, from: number, to: number): Float64Array =>
  samples.subarray(Math.round(from * RATE), Math.round(to * RATE))

const energy = (samples: Float64Array): number => samples.reduce((sum, x) => sum + x * x, 0)

/** The strongest frequency (100 Hz to 8 kHz, 10 Hz steps) of a stretch: a plain DFT, windowed. */
const dominantHz = (samples: Float64Array): number => {
  let best = { hz: 0, power: -1 }
  for (let hz = 100; hz <= 8000; hz += 10) {
    let re = 0
    let im = 0
    samples.forEach((x, i) => {
      const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / samples.length)
      re += w * x * Math.cos((2 * Math.PI * hz * i) / RATE)
      im += w * x * Math.sin((2 * Math.PI * hz * i) / RATE)
    })
    if (re * re + im * im > best.power) best = { hz, power: re * re + im * im }
  }
  return best.hz
}

/** Where the energy sits in frequency: the zero-crossing rate, which follows the centre of noise's band. */
const crossingsPerSecond = (samples: Float64Array): number => {
  let crossings = 0
  for (let i = 1; i < samples.length; i++) if ((samples[i - 1]! < 0) !== (samples[i]! < 0)) crossings++
  return (crossings / samples.length) * RATE
}

const write = (effect: SoundEffect, name: string = effect) =>
  Effect.gen(function* () {
    const path = join(dir, `${name}.wav`)
    yield* (yield* SoundEffects).write(effect, path)
    return { path, wav: yield* Effect.promise(() => readFile(path)) }
  })

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sound-effects-"))
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

const LENGTHS: Record<SoundEffect, readonly [number, number]> = {
  sent: [0.2, 0.3],
  received: [0.35, 0.5],
  tick: [0.02, 0.04],
  reveal: [0.7, 0.9],
  whoosh: [0.35, 0.5]
}

layer(SynthSoundEffectsLive)("SynthSoundEffects", (it) => {
  describe("every effect", () => {
    for (const effect of SOUND_EFFECTS) {
      it.effect(`${effect}: 48 kHz mono 16-bit, its length, peak -6 dBFS, no click at either end, the same bytes every time`, () =>
        Effect.gen(function* () {
          const { path, wav } = yield* write(effect)
          const format = yield* Effect.promise(() => readWavFormat(path))
          expect([format.sampleRate, format.channels, format.bitsPerSample]).toEqual([RATE, 1, 16])
          expect(format.durationSeconds).toBeGreaterThanOrEqual(LENGTHS[effect][0])
          expect(format.durationSeconds).toBeLessThanOrEqual(LENGTHS[effect][1])
          const samples = samplesOf(wav)
          const peak = samples.reduce((max, x) => Math.max(max, Math.abs(x)), 0)
          expect(20 * Math.log10(peak)).toBeCloseTo(-6, 1)
          expect(Math.abs(samples[0]!)).toBeLessThan(0.001)
          expect(Math.abs(samples[samples.length - 1]!)).toBeLessThan(0.001)
          const again = yield* write(effect, `${effect}-again`)
          expect(again.wav.equals(wav)).toBe(true)
        }))
    }
  })

  it.effect("sent rises: its noise moves up in pitch and swells before it stops", () =>
    Effect.gen(function* () {
      const samples = samplesOf((yield* write("sent")).wav)
      expect(crossingsPerSecond(window(samples, 0.15, 0.2))).toBeGreaterThan(1.5 * crossingsPerSecond(window(samples, 0.03, 0.08)))
      expect(energy(window(samples, 0.125, 0.25))).toBeGreaterThan(3 * energy(window(samples, 0, 0.125)))
    }))

  it.effect("received is two notes, the second higher, decaying", () =>
    Effect.gen(function* () {
      const samples = samplesOf((yield* write("received")).wav)
      const first = dominantHz(window(samples, 0.01, 0.09))
      const second = dominantHz(window(samples, 0.11, 0.19))
      expect(first).toBeGreaterThan(500)
      expect(second).toBeGreaterThan(first * 1.2)
      expect(energy(window(samples, 0.3, 0.4))).toBeLessThan(energy(window(samples, 0.1, 0.2)) / 4)
    }))

  it.effect("tick is a click: nearly all of it in the first 15 ms", () =>
    Effect.gen(function* () {
      const samples = samplesOf((yield* write("tick")).wav)
      expect(energy(window(samples, 0, 0.015))).toBeGreaterThan(0.95 * energy(samples))
    }))

  it.effect("reveal climbs: each of its four notes higher than the last", () =>
    Effect.gen(function* () {
      const samples = samplesOf((yield* write("reveal")).wav)
      const notes = [0, 1, 2, 3].map((n) => dominantHz(window(samples, n * 0.07 + 0.005, n * 0.07 + 0.065)))
      notes.slice(1).forEach((hz, n) => expect(hz).toBeGreaterThan(notes[n]! * 1.1))
      // and rings on after the last
      expect(energy(window(samples, 0.5, 0.6))).toBeGreaterThan(0.01 * energy(window(samples, 0.21, 0.31)))
    }))

  it.effect("whoosh swells in the middle and is softer (lower) than the sent swoosh", () =>
    Effect.gen(function* () {
      const whoosh = samplesOf((yield* write("whoosh")).wav)
      const sent = samplesOf((yield* write("sent")).wav)
      expect(energy(window(whoosh, 0.12, 0.28))).toBeGreaterThan(2 * (energy(window(whoosh, 0, 0.08)) + energy(window(whoosh, 0.32, 0.4))))
      expect(crossingsPerSecond(whoosh)).toBeLessThan(crossingsPerSecond(window(sent, 0.1, 0.25)))
    }))
})
