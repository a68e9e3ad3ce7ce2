import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { makePocketsphinxTranscriber, parsePocketsphinxWords } from "../../adapters/media/pocketsphinx-transcriber.ts"
import type { TimedWord } from "../../domain/captions.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { type SpokenWord, speak } from "../support/festival.ts"
import { normaliseWords, wordErrors } from "../support/wer.ts"

const run = promisify(execFile)

const TEXT =
  "Every morning I walk my dog to the small park near our house. " +
  "We usually meet a few neighbors there, and they always ask about the weather. " +
  "After that I make a cup of coffee and read the news for a while. " +
  "On Fridays my sister comes over for lunch, and we cook something simple together, " +
  "like soup with fresh bread or a big green salad."

let dir = ""
let wav16k = ""
let spoken: ReadonlyArray<SpokenWord> = []

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pocketsphinx-"))
  const speech = await speak(TEXT, dir)
  spoken = speech.words
  wav16k = join(dir, "speech16k.wav")
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", speech.wavPath, "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", wav16k])
})

afterAll(() => rm(dir, { recursive: true, force: true }))

/** WER against the text, and word-start error (seconds) against festival's times for the words both agree on. */
const quality = (label: string, words: ReadonlyArray<TimedWord>) => {
  const wer = wordErrors(normaliseWords([TEXT]), normaliseWords(words.map((w) => w.text)))
  const reference = spoken.map((w) => ({ word: normaliseWords([w.text]).join(" "), start: w.start }))
  const recognised = words.map((w) => ({ word: normaliseWords([w.text]).join(" "), start: w.start }))
  const aligned = wordErrors(reference.map((w) => w.word), recognised.map((w) => w.word)).matches
  const startErrors = aligned.map(([r, h]) => Math.abs(reference[r]!.start - recognised[h]!.start)).sort((a, b) => a - b)
  const mean = startErrors.reduce((a, b) => a + b, 0) / startErrors.length
  const median = startErrors[Math.floor(startErrors.length / 2)]!
  const max = startErrors[startErrors.length - 1]!
  console.log(
    `${label}: WER ${(wer.rate * 100).toFixed(1)}% (${wer.errors}/${wer.referenceWords}); ` +
      `word start error over ${startErrors.length} aligned words: mean ${(mean * 1000).toFixed(0)} ms, ` +
      `median ${(median * 1000).toFixed(0)} ms, max ${(max * 1000).toFixed(0)} ms`
  )
  return { wer, startErrors, median }
}

const options = { binary: "pocketsphinx_continuous", parallelism: 2, minChunkSeconds: 60, maxChunkSeconds: 300 }

describe("PocketsphinxTranscriber", () => {
  it.effect("recognises festival speech with under 15% word errors and close word starts", () =>
    Effect.gen(function*() {
      const words = yield* makePocketsphinxTranscriber(options).transcribe(wav16k)
      const { median, wer } = quality("whole clip", words)
      expect(wer.rate).toBeLessThanOrEqual(0.15)
      expect(median).toBeLessThan(0.1)
      expect(words.every((w) => w.end >= w.start)).toBe(true)
      expect(words.map((w) => w.text)).toContain("I")
    }))

  it.effect("cuts long audio into chunks at quiet points and keeps the times of the whole", () =>
    Effect.gen(function*() {
      // Chunks of 6 to 8 s stand in for the 1 to 5 minute chunks of real, long audio.
      const chunked = makePocketsphinxTranscriber({ ...options, parallelism: 3, minChunkSeconds: 6, maxChunkSeconds: 8 })
      const words = yield* chunked.transcribe(wav16k)
      const { median, wer } = quality("chunked", words)
      expect(wer.rate).toBeLessThanOrEqual(0.15)
      expect(median).toBeLessThan(0.1)
      expect(words.map((w) => w.start)).toEqual([...words.map((w) => w.start)].sort((a, b) => a - b))
    }))

  it("reads word lines, drops fillers and alternate-pronunciation marks", () => {
    const stdout = [
      "i think so",
      "<s> 0.000 0.150 1.000300",
      "i 0.160 0.300 0.99",
      "[NOISE] 0.310 0.400 0.5",
      "think(2) 0.410 0.700 0.98",
      "++BREATH++ 0.710 0.800 0.4",
      "<sil> 0.810 0.900 0.6",
      "i'm 0.910 1.100 0.9",
      "</s> 1.110 1.200 1.0"
    ].join("\n")
    expect(parsePocketsphinxWords(stdout, 10)).toEqual([
      { text: "I", start: 10.16, end: 10.3 },
      { text: "think", start: 10.41, end: 10.7 },
      { text: "I'm", start: 10.91, end: 11.1 }
    ])
  })

  it.effect("says how to install pocketsphinx when its binary is missing", () =>
    Effect.gen(function*() {
      const missing = makePocketsphinxTranscriber({ ...options, binary: join(dir, "no-such-pocketsphinx") })
      const error = yield* Effect.flip(missing.transcribe(wav16k))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toMatch(/apt-get install pocketsphinx pocketsphinx-en-us/)
    }))
})
