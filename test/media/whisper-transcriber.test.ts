import { execFile } from "node:child_process"
import { existsSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { WhisperTranscriberLive, type WhisperConfig, wordsFromSegments } from "../../adapters/media/whisper-transcriber.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { Transcriber } from "../../domain/ports/transcriber.ts"

const run = promisify(execFile)

/**
 * whisper.cpp's own test model: vocabulary without weights, so it loads and hears nothing. It is kept
 * outside the repository: WHISPER_TEST_MODEL names it (.ci/run sets it), else ../shared/models beside the
 * checkout. Only when neither is there are the tests that load it skipped; a named file that is missing fails them.
 */
const DEFAULT_MODEL = fileURLToPath(new URL("../../../shared/models/for-tests-ggml-tiny.en.bin", import.meta.url))
const MODEL = process.env["WHISPER_TEST_MODEL"] ?? DEFAULT_MODEL
const NO_MODEL = process.env["WHISPER_TEST_MODEL"] === undefined && !existsSync(DEFAULT_MODEL)
/** A test that loads the test model says why it was skipped when it is absent. */
const needsModel = (title: string) =>
  NO_MODEL ? `${title} (skipped: ${DEFAULT_MODEL} is absent and WHISPER_TEST_MODEL is not set)` : title
const MODEL_SHA1 = "06f45ff6b30e9678b40ca36ce3bc175a50fd4929"

let dir = ""
let clip = ""

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "whisper-"))
  clip = join(dir, "clip.wav")
  // 80 ms: whisper.cpp skips inference on input under 100 ms. A full pass of this weightless model
  // costs 15 to 30 s of CPU here and can only ever return nothing, so the clip keeps the test fast.
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "0.08", "-c:a", "pcm_s16le", clip])
})

afterAll(() => rm(dir, { recursive: true, force: true }))

const transcribe = (config: WhisperConfig, wavPath: string) =>
  Effect.flatMap(Transcriber, (t) => t.transcribe(wavPath)).pipe(Effect.provide(WhisperTranscriberLive(config)))

describe("WhisperTranscriber", () => {
  it.effect.skipIf(NO_MODEL)(needsModel("loads a verified model and returns no words for silence"), () =>
    Effect.gen(function*() {
      const words = yield* Effect.flatMap(Transcriber, (t) =>
        Effect.zipWith(t.transcribe(clip), t.transcribe(clip), (a, b) => [...a, ...b])).pipe(
          Effect.provide(WhisperTranscriberLive({ modelPath: MODEL, sha1: MODEL_SHA1.toUpperCase() }))
        )
      expect(words).toEqual([])
    }))

  it.effect.skipIf(NO_MODEL)(needsModel("refuses a model whose SHA-1 differs, naming the file and both digests"), () =>
    Effect.gen(function*() {
      const wrong = "c78c86eb1a8faa21b369bcd33207cc90d64ae9df"
      const error = yield* Effect.flip(transcribe({ modelPath: MODEL, sha1: wrong }, clip))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain(MODEL)
      expect(error.message).toContain(`SHA-1 ${MODEL_SHA1}, but ${wrong} was expected`)
    }))

  it.effect("says so when the model file does not exist", () =>
    Effect.gen(function*() {
      const missing = join(dir, "ggml-base.en.bin")
      const error = yield* Effect.flip(transcribe({ modelPath: missing }, clip))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toBe(`The whisper model ${missing} does not exist: set WHISPER_MODEL to the path of a ggml model file.`)
    }))

  it.effect("says so when the file is not a whisper model", () =>
    Effect.gen(function*() {
      const notAModel = join(dir, "notes.bin")
      yield* Effect.promise(() => writeFile(notAModel, "not a model"))
      const error = yield* Effect.flip(transcribe({ modelPath: notAModel }, clip))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toMatch(/^whisper\.cpp could not load .*notes\.bin .*is it a whisper\.cpp ggml model\?$/)
    }))

  it("joins token segments into words and drops non-speech marks", () => {
    const segments = [
      { text: " [BLANK_AUDIO]", t0: 0, t1: 900 },
      { text: " Hello", t0: 1000, t1: 1300 },
      { text: ",", t0: 1300, t1: 1320 },
      { text: " transcri", t0: 1400, t1: 1700 },
      { text: "ption", t0: 1700, t1: 1950 },
      { text: " (", t0: 2000, t1: 2050 },
      { text: "upbeat", t0: 2050, t1: 2200 },
      { text: " music", t0: 2200, t1: 2400 },
      { text: ")", t0: 2400, t1: 2450 },
      { text: " works", t0: 2500, t1: 2800 },
      { text: ".", t0: 2800, t1: 2810 }
    ]
    expect(wordsFromSegments(segments)).toEqual([
      { text: "Hello,", start: 1, end: 1.32 },
      { text: "transcription", start: 1.4, end: 1.95 },
      { text: "works.", start: 2.5, end: 2.81 }
    ])
  })
})
