// eSpeak NG through WebAssembly: a real WAV, every word of the text timed, and speech where the words are.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { makeEspeakSpeechEngine } from "../../adapters/speech/espeak-speech-engine.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { textWords } from "../../domain/spoken-words.ts"

const run = promisify(execFile)

const TEXT = "The quick brown fox jumps over the lazy dog. Then it naps in the warm sun, all afternoon!"

let dir = ""
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "espeak-"))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

const probe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "stream=channels,sample_rate,codec_name:format=duration", "-of", "json", path])
  const parsed = JSON.parse(stdout) as {
    streams: Array<{ channels: number; sample_rate: string; codec_name: string }>
    format: { duration: string }
  }
  return { ...parsed.streams[0]!, duration: Number(parsed.format.duration) }
}

/** The samples of a WAV this engine wrote (a 44-byte header, then 16-bit mono PCM). */
const samplesOf = async (path: string) => {
  const bytes = await readFile(path)
  return { rate: bytes.readUInt32LE(24), samples: new Int16Array(bytes.buffer, bytes.byteOffset + 44, (bytes.length - 44) / 2) }
}

const rms = (samples: Int16Array, rate: number, from: number, to: number): number => {
  const slice = samples.subarray(Math.round(from * rate), Math.round(to * rate))
  return Math.sqrt(slice.reduce((sum, s) => sum + s * s, 0) / Math.max(1, slice.length))
}

describe("EspeakSpeechEngine", () => {
  it.effect("speaks two sentences into a mono WAV and times every word of the text, in order", () =>
    Effect.gen(function*() {
      const engine = yield* makeEspeakSpeechEngine
      const outputWav = join(dir, "two-sentences.wav")
      const spoken = yield* engine.speak({ text: TEXT, voiceId: "espeak-ng-en-us", outputWav })

      const probed = yield* Effect.promise(() => probe(outputWav))
      expect(probed).toMatchObject({ channels: 1, codec_name: "pcm_s16le" })
      expect(Math.abs(probed.duration - spoken.durationSeconds)).toBeLessThan(0.05)
      expect(spoken.durationSeconds).toBeGreaterThan(3)

      expect(spoken.words.map((w) => w.text)).toEqual(TEXT.split(" "))
      const times = spoken.words.flatMap((w) => [w.start, w.end])
      times.forEach((t, i) => {
        expect(t).toBeGreaterThanOrEqual(i === 0 ? 0 : times[i - 1]!)
        expect(t).toBeLessThanOrEqual(spoken.durationSeconds)
      })
      expect(spoken.words.filter((w) => w.start > 1).length).toBeGreaterThan(5)
      expect(spoken.words.every((w) => w.end > w.start)).toBe(true)
    }))

  it.effect("puts the words where the speech is and the sentence break where it is quiet", () =>
    Effect.gen(function*() {
      const engine = yield* makeEspeakSpeechEngine
      const outputWav = join(dir, "where.wav")
      const { words } = yield* engine.speak({ text: TEXT, voiceId: "espeak-ng-en-us", outputWav })
      const { rate, samples } = yield* Effect.promise(() => samplesOf(outputWav))

      // The pause after "dog." lies between its end and the start of "Then".
      const dog = words.findIndex((w) => w.text === "dog.")
      const pause = { from: words[dog]!.end, to: words[dog + 1]!.start }
      expect(pause.to - pause.from).toBeGreaterThan(0.1)
      const quiet = rms(samples, rate, pause.from, pause.to)
      const loud = rms(samples, rate, words[0]!.start, words[dog]!.end)
      expect(loud).toBeGreaterThan(1000)
      expect(quiet).toBeLessThan(loud / 20)
      // Every word's span carries sound, so no word sits on silence.
      for (const w of words) expect(rms(samples, rate, w.start, w.end)).toBeGreaterThan(loud / 5)
    }))

  it.effect("speaks each listed voice, and a different voice makes different audio", () =>
    Effect.gen(function*() {
      const engine = yield* makeEspeakSpeechEngine
      expect(engine.engine).toBe("espeak-ng")
      expect(engine.voices[0]).toEqual({ id: "espeak-ng-en-us", name: "English (America)", language: "en-US", gender: "neutral" })
      expect(new Set(engine.voices.map((v) => v.id)).size).toBe(engine.voices.length)
      expect(engine.voices.every((v) => /^espeak-ng-[a-z0-9-]+$/.test(v.id))).toBe(true)
      expect(engine.voices.map((v) => v.gender)).toEqual(expect.arrayContaining(["female", "male", "neutral"]))

      const wavs = yield* Effect.forEach(engine.voices, (voice) =>
        Effect.gen(function*() {
          const outputWav = join(dir, `${voice.id}.wav`)
          const spoken = yield* engine.speak({ text: "Hello, 1 2 3.", voiceId: voice.id, outputWav })
          expect(spoken.durationSeconds, voice.id).toBeGreaterThan(0.3)
          return yield* Effect.promise(() => readFile(outputWav))
        }))
      const [american, female] = [wavs[0]!, wavs[engine.voices.findIndex((v) => v.id === "espeak-ng-en-us-f3")]!]
      expect(female.equals(american)).toBe(false)
    }))

  it.effect("keeps every word of text it reads in pieces or not at all, in order", () =>
    Effect.gen(function*() {
      const engine = yield* makeEspeakSpeechEngine
      const text = "At 3:45 p.m. — “quoted” the the 🎉 end."
      const spoken = yield* engine.speak({ text, voiceId: "espeak-ng-en-gb", outputWav: join(dir, "pieces.wav") })
      expect(spoken.words.map((w) => w.text)).toEqual(textWords(text).map((w) => w.text))
      const starts = spoken.words.map((w) => w.start)
      expect(starts).toEqual([...starts].sort((a, b) => a - b))
      expect(spoken.words[spoken.words.length - 1]!.end).toBeLessThanOrEqual(spoken.durationSeconds)
    }))

  it.effect("fails with WorkFailed for an unknown voice or empty text", () =>
    Effect.gen(function*() {
      const engine = yield* makeEspeakSpeechEngine
      const unknown = yield* Effect.exit(engine.speak({ text: "Hello.", voiceId: "espeak-ng-xx", outputWav: join(dir, "x.wav") }))
      expect(unknown).toStrictEqual(Exit.fail(expect.any(WorkFailed)))
      expect(Exit.isFailure(unknown) && String(unknown.cause)).toContain("espeak-ng-xx")
      const empty = yield* Effect.exit(engine.speak({ text: " \n ", voiceId: "espeak-ng-en-us", outputWav: join(dir, "y.wav") }))
      expect(Exit.isFailure(empty) && String(empty.cause)).toContain("no text")
    }))
})
