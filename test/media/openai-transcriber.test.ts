import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, stat } from "node:fs/promises"
import type { IncomingMessage, ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { OpenAiTranscriberLive, type OpenAiConfig } from "../../adapters/media/openai-transcriber.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { Transcriber } from "../../domain/ports/transcriber.ts"
import { type StandIn, answerJson, startStandIn, unreachableUrl } from "../support/stand-in.ts"
import { WorkspaceKeysLive } from "../support/workspace-keys.ts"

const run = promisify(execFile)
const KEY = "sk-test-key"

interface Received {
  readonly path: string
  readonly fields: Record<string, string>
  readonly file: { readonly name: string; readonly type: string; readonly size: number }
}

/** What the stand-in answers next; "hang" never answers; "one word" is `word<n>` at 0.1 s of the n-th upload. */
let answer: "words" | "one word" | "text only" | "hang" = "words"
let received: Array<Received> = []
/** The bytes of each file received. */
let uploads: Array<Buffer> = []
let requestArrived: () => void = () => {}

/** Speaks the documented shapes of OpenAI's transcription endpoint. */
const standIn = async (req: IncomingMessage, requestBody: Buffer, res: ServerResponse) => {
  const json = (status: number, body: unknown) => answerJson(res, status, body)
  if (req.headers.authorization !== `Bearer ${KEY}`) {
    return json(401, {
      error: {
        message: "Incorrect API key provided: wr***ey. You can find your API key in your account settings.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key"
      }
    })
  }
  const form = await new Response(requestBody, {
    headers: { "content-type": req.headers["content-type"] ?? "" }
  }).formData()
  const file = form.get("file")
  if (!(file instanceof File)) return json(400, { error: { message: "file is required" } })
  const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === "string")) as Record<string, string>
  received.push({ path: req.url ?? "", fields, file: { name: file.name, type: file.type, size: file.size } })
  uploads.push(Buffer.from(await file.arrayBuffer()))
  requestArrived()
  if (answer === "hang") return
  if (answer === "text only") return json(200, { text: "Hello there." })
  if (answer === "one word") {
    return json(200, { text: "word", words: [{ word: ` word${uploads.length}`, start: 0.1, end: 0.2 }] })
  }
  json(200, {
    task: "transcribe",
    language: "english",
    duration: 1.5,
    text: "Hello there.",
    words: [
      { word: "Hello", start: 0.12, end: 0.48 },
      { word: " there.", start: 0.5, end: 0.9 }
    ]
  })
}

let server: StandIn
let baseUrl = ""
let dir = ""
let wav = ""
/** 4 s: 1 s tones with 0.5 s of silence between, at 1 to 1.5 s and 2.5 to 3 s. */
let tones = ""

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openai-"))
  wav = join(dir, "audio.wav")
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=300:duration=1", "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", wav])
  tones = join(dir, "tones.wav")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "aevalsrc='if(lt(mod(t,1.5),1),0.5*sin(2*PI*440*t),0)':s=16000:d=4",
    "-ac", "1", "-c:a", "pcm_s16le", tones
  ])
  server = await startStandIn(standIn)
  baseUrl = server.baseUrl
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

const transcribeAt = (path: string, config: Partial<OpenAiConfig>, workspaceId?: string, language?: string) =>
  Effect.flatMap(Transcriber, (t) => t.transcribe(path, { workspaceId, language })).pipe(
    Effect.provide(OpenAiTranscriberLive({ baseUrl, apiKey: KEY, model: "whisper-1", ...config }).pipe(
      Layer.provide(WorkspaceKeysLive({ "ws-byok": KEY }))
    ))
  )

const transcribe = (config: Partial<OpenAiConfig>, workspaceId?: string, language?: string) =>
  transcribeAt(wav, config, workspaceId, language)

/** The canonical 44-byte header of 16 kHz mono 16-bit PCM, describing the rest of the file. */
const isPcmWav = (bytes: Buffer): boolean =>
  bytes.toString("latin1", 0, 4) === "RIFF" && bytes.readUInt32LE(4) === bytes.length - 8 &&
  bytes.toString("latin1", 8, 16) === "WAVEfmt " && bytes.readUInt16LE(20) === 1 && bytes.readUInt16LE(22) === 1 &&
  bytes.readUInt32LE(24) === 16_000 && bytes.readUInt16LE(34) === 16 &&
  bytes.toString("latin1", 36, 40) === "data" && bytes.readUInt32LE(40) === bytes.length - 44

describe("OpenAiTranscriber", () => {
  it.effect("sends the audio as documented and reads the word timings", () =>
    Effect.gen(function*() {
      answer = "words"
      received = []
      const words = yield* transcribe({})
      expect(words).toEqual([
        { text: "Hello", start: 0.12, end: 0.48 },
        { text: "there.", start: 0.5, end: 0.9 }
      ])
      const size = (yield* Effect.promise(() => stat(wav))).size
      expect(received).toEqual([{
        path: "/v1/audio/transcriptions",
        fields: { model: "whisper-1", response_format: "verbose_json", "timestamp_granularities[]": "word" },
        file: { name: "audio.wav", type: "audio/wav", size }
      }])
    }))

  it.effect("sends the language when one is asked for, and none when it is left to the service", () =>
    Effect.gen(function*() {
      answer = "words"
      received = []
      yield* transcribe({}, undefined, "de")
      yield* transcribe({})
      expect(received.map((r) => r.fields.language)).toEqual(["de", undefined])
    }))

  it.effect("sends the workspace's vocabulary as the prompt, and no prompt without one", () =>
    Effect.gen(function*() {
      answer = "words"
      received = []
      const provide = Effect.provide(OpenAiTranscriberLive({ baseUrl, apiKey: KEY, model: "whisper-1" }).pipe(
        Layer.provide(WorkspaceKeysLive({ "ws-byok": KEY }))
      ))
      yield* Effect.flatMap(Transcriber, (t) => t.transcribe(wav, { vocabulary: ["Zorblatt", "GPT-4o"] })).pipe(provide)
      yield* Effect.flatMap(Transcriber, (t) => t.transcribe(wav, { vocabulary: [] })).pipe(provide)
      expect(received.map((r) => r.fields.prompt)).toEqual(["Zorblatt, GPT-4o.", undefined])
    }))

  it.effect("accepts a base URL that already ends in /v1", () =>
    Effect.gen(function*() {
      answer = "words"
      received = []
      yield* transcribe({ baseUrl: `${baseUrl}/v1/` })
      expect(received.map((r) => r.path)).toEqual(["/v1/audio/transcriptions"])
    }))

  it.effect("reports the provider's own message when it refuses the key", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(transcribe({ apiKey: "wrong-key" }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toBe(
        "The transcription service refused the audio (HTTP 401): Incorrect API key provided: wr***ey. " +
          "You can find your API key in your account settings."
      )
    }))

  it.effect("sends a BYOK workspace's own key instead of the server's", () =>
    Effect.gen(function*() {
      answer = "words"
      const serverKeyOnly = yield* Effect.flip(transcribe({ apiKey: "wrong-key" }))
      expect(serverKeyOnly.message).toContain("HTTP 401")
      expect(yield* transcribe({ apiKey: "wrong-key" }, "ws-byok")).toHaveLength(2)
    }))

  it.effect("says the service gave no word timings when it answers with text only", () =>
    Effect.gen(function*() {
      answer = "text only"
      const error = yield* Effect.flip(transcribe({}))
      expect(error.message).toMatch(/returned no word timings: it must support response_format=verbose_json/)
    }))

  it.effect("says when the service cannot be reached", () =>
    Effect.gen(function*() {
      const unreachable = yield* Effect.promise(unreachableUrl)
      const error = yield* Effect.flip(transcribe({ baseUrl: unreachable }))
      expect(error.message).toMatch(new RegExp(`^The transcription service at ${unreachable}/v1/audio/transcriptions could not be reached: .*ECONNREFUSED`))
    }))

  it.effect("sends audio over the upload limit in chunks cut at quiet points and shifts their words by each chunk's start", () =>
    Effect.gen(function*() {
      answer = "one word"
      received = []
      uploads = []
      // 4 s of audio is 128044 bytes; at this limit the chunker's worst case needs 3 chunks.
      const maxUploadBytes = 70_000
      const words = yield* transcribeAt(tones, { maxUploadBytes })
      expect(uploads).toHaveLength(3)
      for (const upload of uploads) {
        expect(upload.length).toBeLessThanOrEqual(maxUploadBytes)
        expect(isPcmWav(upload)).toBe(true)
      }
      expect(received.every((r) => r.fields.model === "whisper-1" && r.file.type === "audio/wav")).toBe(true)
      // Together the chunks are the source's samples, in order.
      const source = yield* Effect.promise(() => readFile(tones))
      const samples = Buffer.concat(uploads.map((upload) => upload.subarray(44)))
      expect(samples.length).toBe(4 * 16_000 * 2)
      expect(samples.equals(source.subarray(source.length - samples.length))).toBe(true)
      const offsets = uploads.map((_, i) => uploads.slice(0, i).reduce((sum, upload) => sum + (upload.length - 44) / 2, 0) / 16_000)
      // The cuts fall in the silences.
      expect(offsets[1]).toBeGreaterThanOrEqual(1)
      expect(offsets[1]).toBeLessThanOrEqual(1.5)
      expect(offsets[2]).toBeGreaterThanOrEqual(2.5)
      expect(offsets[2]).toBeLessThanOrEqual(3)
      expect(words.map((w) => w.text)).toEqual(["word1", "word2", "word3"])
      words.forEach((w, i) => {
        expect(w.start).toBeCloseTo(offsets[i]! + 0.1, 6)
        expect(w.end).toBeCloseTo(offsets[i]! + 0.2, 6)
      })
    }))

  it.effect("fails the whole transcription when a chunk is refused", () =>
    Effect.gen(function*() {
      answer = "text only"
      uploads = []
      const error = yield* Effect.flip(transcribeAt(tones, { maxUploadBytes: 70_000 }))
      expect(error.message).toMatch(/returned no word timings/)
      expect(uploads).toHaveLength(1)
    }))

  it.effect("gives up on a service that does not answer", () =>
    Effect.gen(function*() {
      answer = "hang"
      const arrived = new Promise<void>((resolve) => (requestArrived = resolve))
      const fiber = yield* Effect.fork(transcribe({}))
      yield* Effect.promise(() => arrived)
      yield* TestClock.adjust("10 minutes")
      const error = yield* Effect.flip(Fiber.join(fiber))
      expect(error).toEqual(new WorkFailed({ message: "The transcription service did not answer within 10 minutes." }))
    }))
})
