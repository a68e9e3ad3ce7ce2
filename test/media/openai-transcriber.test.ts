import { execFile } from "node:child_process"
import { mkdtemp, rm, stat } from "node:fs/promises"
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

/** What the stand-in answers next; "hang" never answers. */
let answer: "words" | "text only" | "hang" = "words"
let received: Array<Received> = []
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
  requestArrived()
  if (answer === "hang") return
  if (answer === "text only") return json(200, { text: "Hello there." })
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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openai-"))
  wav = join(dir, "audio.wav")
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", "sine=frequency=300:duration=1", "-ar", "16000", "-ac", "1", "-c:a", "pcm_s16le", wav])
  server = await startStandIn(standIn)
  baseUrl = server.baseUrl
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

const transcribe = (config: Partial<OpenAiConfig>, workspaceId?: string, language?: string) =>
  Effect.flatMap(Transcriber, (t) => t.transcribe(wav, { workspaceId, language })).pipe(
    Effect.provide(OpenAiTranscriberLive({ baseUrl, apiKey: KEY, model: "whisper-1", ...config }).pipe(
      Layer.provide(WorkspaceKeysLive({ "ws-byok": KEY }))
    ))
  )

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
