import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { chunksOf, readLayout, writeChunk } from "../../adapters/media/wav-chunks.ts"

const run = promisify(execFile)

let dir = ""
/** 4 s: 1 s tones with 0.5 s of silence between, at 1 to 1.5 s and 2.5 to 3 s. */
let tones = ""
let stereo = ""

const ffmpeg = (source: string, out: string, ...args: Array<string>) =>
  run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", source, ...args, "-c:a", "pcm_s16le", out])

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "wav-chunks-"))
  tones = join(dir, "tones.wav")
  stereo = join(dir, "stereo.wav")
  await ffmpeg("aevalsrc='if(lt(mod(t,1.5),1),0.5*sin(2*PI*440*t),0)':s=16000:d=4", tones, "-ac", "1")
  await ffmpeg("sine=f=440:d=1", stereo, "-ar", "44100", "-ac", "2")
})

afterAll(() => rm(dir, { recursive: true, force: true }))

describe("wav-chunks", () => {
  it.effect("cuts into the asked number of chunks in the quiet gaps", () =>
    Effect.gen(function*() {
      const layout = yield* readLayout(tones)
      expect(layout.samples).toBe(4 * 16_000)
      const chunks = yield* chunksOf(tones, layout, { count: 3 })
      expect(chunks).toHaveLength(3)
      expect(chunks[0]!.start).toBe(0)
      expect(chunks[2]!.end).toBe(layout.samples)
      expect(chunks[1]!.start).toBe(chunks[0]!.end)
      expect(chunks[2]!.start).toBe(chunks[1]!.end)
      const [first, second] = [chunks[1]!.start / 16_000, chunks[2]!.start / 16_000]
      // The cut's quiet 200 ms lie wholly within the silence.
      expect(first).toBeGreaterThanOrEqual(1.1)
      expect(first).toBeLessThanOrEqual(1.4)
      expect(second).toBeGreaterThanOrEqual(2.6)
      expect(second).toBeLessThanOrEqual(2.9)
    }))

  it.effect("cuts into as few chunks as keep each within a size, and into one when the audio fits", () =>
    Effect.gen(function*() {
      const layout = yield* readLayout(tones)
      for (const maxSamples of [20_000, 30_000, 40_000]) {
        const chunks = yield* chunksOf(tones, layout, { maxSamples })
        expect(chunks.length).toBeGreaterThan(1)
        expect(chunks.every((c) => c.end - c.start <= maxSamples)).toBe(true)
        expect(chunks.reduce((sum, c) => sum + c.end - c.start, 0)).toBe(layout.samples)
      }
      expect(yield* chunksOf(tones, layout, { maxSamples: layout.samples })).toEqual([{ start: 0, end: layout.samples }])
    }))

  it.effect("writes a chunk as a WAV of its own holding exactly its samples", () =>
    Effect.gen(function*() {
      const layout = yield* readLayout(tones)
      const target = join(dir, "chunk.wav")
      yield* writeChunk(tones, layout, { start: 16_000, end: 24_000 }, target)
      const [source, chunk] = yield* Effect.promise(() => Promise.all([readFile(tones), readFile(target)]))
      expect(yield* readLayout(target)).toEqual({ dataOffset: 44, samples: 8_000 })
      expect(chunk.subarray(44).equals(source.subarray(layout.dataOffset + 32_000, layout.dataOffset + 48_000))).toBe(true)
    }))

  it.effect("refuses audio that is not 16 kHz mono 16-bit", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(readLayout(stereo))
      expect(Exit.isFailure(exit) && String(exit.cause)).toContain("is not a 16 kHz mono 16-bit WAV: format 1, 2 channels, 44100 Hz, 16 bits")
    }))
})
