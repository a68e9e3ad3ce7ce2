// OpenAI's text to speech against a stand-in that checks the documented request and answers with real
// speech (festival's, behind known silence): a valid WAV, every word timed within the sound.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import type { IncomingMessage, ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Redacted } from "effect"
import { makeOpenAiSpeechEngine } from "../../adapters/speech/openai-speech-engine.ts"
import { SpeechEnginesLive } from "../../adapters/speech/speech-engines-layer.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { SpeechEngines } from "../../domain/ports/speech-engine.ts"
import { scriptWords } from "../../domain/spoken-words.ts"
import { type Speech, speak } from "../support/festival.ts"
import { type StandIn, answerJson, openAiInvalidKey, startStandIn, unreachableUrl } from "../support/stand-in.ts"
import { workspaceKeys, WorkspaceKeysLive } from "../support/workspace-keys.ts"

const run = promisify(execFile)
const KEY = "sk-test-key"
const TEXT = "The quick brown fox jumps over the lazy dog. Then it naps in the warm sun."
/** Silence the stand-in puts before and after festival's speech. */
const LEADING_SILENCE = 0.6
const TRAILING_SILENCE = 0.5

interface Received {
  readonly method: string
  readonly path: string
  readonly contentType: string
  readonly body: unknown
}

let received: Array<Received> = []
let served = Buffer.alloc(0)

/** Answers like POST /v1/audio/speech: the audio itself, or OpenAI's error body. */
const standIn = async (req: IncomingMessage, requestBody: Buffer, res: ServerResponse) => {
  if (req.headers.authorization !== `Bearer ${KEY}`) {
    return answerJson(res, 401, openAiInvalidKey)
  }
  received.push({
    method: req.method ?? "",
    path: req.url ?? "",
    contentType: req.headers["content-type"] ?? "",
    body: JSON.parse(requestBody.toString("utf8"))
  })
  res.writeHead(200, { "content-type": "audio/wav" })
  res.end(served)
}

let server: StandIn
let baseUrl = ""
let dir = ""
let festival: Speech

const probeDuration = async (path: string): Promise<number> =>
  Number((await run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", path])).stdout)

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "openai-speech-"))
  festival = await speak(TEXT, dir)
  // OpenAI's WAV: 24 kHz 16-bit mono, streamed, so both RIFF lengths read 0xFFFFFFFF.
  const padded = join(dir, "padded.wav")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error", "-i", festival.wavPath,
    "-af", `adelay=${LEADING_SILENCE * 1000},apad=pad_dur=${TRAILING_SILENCE}`,
    "-ar", "24000", "-ac", "1", "-c:a", "pcm_s16le", padded
  ])
  served = await readFile(padded)
  served.writeUInt32LE(0xffffffff, 4)
  served.writeUInt32LE(0xffffffff, served.indexOf("data") + 4)
  server = await startStandIn(standIn)
  baseUrl = server.baseUrl
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

/** Workspace "ws-byok" brought the key the stand-in accepts. */
const engine = (config: { readonly baseUrl?: string; readonly apiKey?: string } = {}) =>
  makeOpenAiSpeechEngine(
    { baseUrl: config.baseUrl ?? baseUrl, apiKey: Redacted.make(config.apiKey ?? KEY), model: "gpt-4o-mini-tts" },
    workspaceKeys({ "ws-byok": KEY })
  )

describe("OpenAiSpeechEngine", () => {
  it("offers OpenAI's voices", () => {
    expect(engine().voices.map((v) => v.id)).toEqual(
      ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"].map((name) => `openai-${name}`)
    )
    expect(engine().voices[5]).toEqual({ id: "openai-nova", name: "Nova", language: "en-US", gender: "female" })
  })

  it.effect("asks for WAV as documented, saves it, and times every word within the sound", () =>
    Effect.gen(function*() {
      received = []
      const outputWav = join(dir, "speech.wav")
      const spoken = yield* engine().speak({ text: TEXT, voiceId: "openai-coral", outputWav })
      expect(received).toEqual([{
        method: "POST",
        path: "/v1/audio/speech",
        contentType: "application/json",
        body: { model: "gpt-4o-mini-tts", input: TEXT, voice: "coral", response_format: "wav" }
      }])
      expect(yield* Effect.promise(() => readFile(outputWav))).toEqual(served)
      expect(Math.abs(spoken.durationSeconds - (yield* Effect.promise(() => probeDuration(outputWav))))).toBeLessThan(0.05)

      expect(spoken.words.map((w) => w.text)).toEqual(scriptWords(TEXT))
      for (const [i, w] of spoken.words.entries()) {
        expect(w.end).toBeGreaterThanOrEqual(w.start)
        expect(w.end).toBeLessThanOrEqual(spoken.durationSeconds)
        if (i > 0) expect(w.start).toBeGreaterThanOrEqual(spoken.words[i - 1]!.end)
      }
      // The words lie where festival's speech is, not over the silence around it.
      const speechStart = LEADING_SILENCE + festival.words[0]!.start
      const speechEnd = LEADING_SILENCE + festival.words.at(-1)!.end
      expect(spoken.words[0]!.start).toBeGreaterThan(LEADING_SILENCE)
      expect(Math.abs(spoken.words[0]!.start - speechStart)).toBeLessThan(0.1)
      expect(Math.abs(spoken.words.at(-1)!.end - speechEnd)).toBeLessThan(0.1)
    }))

  it.effect("reports OpenAI's own message when it refuses the key", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(engine({ apiKey: "wrong-key" }).speak({ text: TEXT, voiceId: "openai-alloy", outputWav: join(dir, "refused.wav") }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain("HTTP 401")
      expect(error.message).toContain("Incorrect API key provided: wr***ey.")
    }))

  it.effect("speaks for a BYOK workspace with its own key, not the server's", () =>
    Effect.gen(function*() {
      const withWrongServerKey = engine({ apiKey: "wrong-key" })
      const refused = yield* Effect.flip(withWrongServerKey.speak({ text: TEXT, voiceId: "openai-alloy", outputWav: join(dir, "s.wav") }))
      expect(refused.message).toContain("HTTP 401")
      const spoken = yield* withWrongServerKey.speak({ text: TEXT, voiceId: "openai-alloy", outputWav: join(dir, "w.wav"), workspaceId: "ws-byok" })
      expect(spoken.words.map((w) => w.text)).toEqual(scriptWords(TEXT))
    }))

  it.effect("names the base URL when OpenAI cannot be reached", () =>
    Effect.gen(function*() {
      const unreachable = yield* Effect.promise(unreachableUrl)
      const error = yield* Effect.flip(engine({ baseUrl: unreachable }).speak({ text: TEXT, voiceId: "openai-alloy", outputWav: join(dir, "x.wav") }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain(unreachable)
    }))

  it.effect("refuses a voice it does not have", () =>
    Effect.gen(function*() {
      received = []
      const error = yield* Effect.flip(engine().speak({ text: TEXT, voiceId: "openai-nobody", outputWav: join(dir, "x.wav") }))
      expect(error.message).toBe("OpenAI has no voice openai-nobody")
      expect(received).toEqual([])
    }))

  it.effect("is offered, after festival, only when OPENAI_API_KEY is set", () =>
    Effect.gen(function*() {
      const engines = (settings: ReadonlyArray<readonly [string, string]>) =>
        Effect.provide(SpeechEngines, SpeechEnginesLive.pipe(Layer.provide(WorkspaceKeysLive()))).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(settings))))
      expect((yield* engines([])).map((e) => e.engine)).not.toContain("openai")
      const configured = yield* engines([["OPENAI_API_KEY", KEY], ["OPENAI_BASE_URL", `${baseUrl}/v1`]])
      expect(configured[0]!.engine).toBe("festival")
      const openAi = configured.find((e) => e.engine === "openai")!
      received = []
      yield* openAi.speak({ text: TEXT, voiceId: "openai-onyx", outputWav: join(dir, "layer.wav") })
      expect(received.map((r) => [r.path, r.body])).toEqual([
        ["/v1/audio/speech", { model: "gpt-4o-mini-tts", input: TEXT, voice: "onyx", response_format: "wav" }]
      ])
    }))
})
