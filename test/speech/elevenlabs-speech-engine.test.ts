// ElevenLabs' text to speech "with timestamps" against a stand-in that checks the documented requests
// and answers with real speech (festival's, as raw 22050 Hz PCM, its characters timed from festival's
// words): a valid WAV and the words at the times the voice said them.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import type { IncomingMessage, ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Logger, Redacted } from "effect"
import { makeElevenLabsSpeechEngine } from "../../adapters/speech/elevenlabs-speech-engine.ts"
import { SpeechEnginesLive } from "../../adapters/speech/speech-engines-layer.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { SpeechEngines } from "../../domain/ports/speech-engine.ts"
import { scriptWords } from "../../domain/spoken-words.ts"
import { type Speech, speak } from "../support/festival.ts"
import { type StandIn, answerJson, startStandIn, unreachableUrl } from "../support/stand-in.ts"
import { workspaceKeys, WorkspaceKeysLive } from "../support/workspace-keys.ts"

const run = promisify(execFile)
const KEY = "xi-test-key"
const RACHEL = "21m00Tcm4TlvDq8ikWAM"
/** A voice the listing offers but the speech endpoint refuses, answering with a plain-string detail. */
const RETIRED = "retiredVoice01"
// Festival says each of these words as one word, so its word times are the characters' times.
const TEXT = "The quick brown fox jumps over the lazy dog. Then it naps in the warm sun."

interface Received {
  readonly method: string
  readonly path: string
  readonly contentType: string | undefined
  readonly body: unknown
}

let received: Array<Received> = []
let pcm = Buffer.alloc(0)
let alignment: {
  characters: Array<string>
  character_start_times_seconds: Array<number>
  character_end_times_seconds: Array<number>
}
/** When set, the stand-in refuses the key as a revoked key is refused. */
let revoked = false

const VOICES = {
  voices: [
    {
      voice_id: RACHEL,
      name: "Rachel",
      category: "premade",
      labels: { accent: "american", description: "calm", age: "young", gender: "female", use_case: "narration" },
      preview_url: "https://example.invalid/rachel.mp3"
    },
    { voice_id: RETIRED, name: "Old clone", category: "cloned", labels: { language: "de" } },
    { voice_id: "noLabels0001", name: "Bare", category: "generated", labels: null }
  ]
}

/** Answers like GET /v1/voices and POST /v1/text-to-speech/{voice_id}/with-timestamps. */
const standIn = async (req: IncomingMessage, requestBody: Buffer, res: ServerResponse) => {
  const json = (status: number, body: unknown) => answerJson(res, status, body)
  if (revoked || req.headers["xi-api-key"] !== KEY) {
    return json(401, { detail: { status: "invalid_api_key", message: "Invalid API key" } })
  }
  const raw = requestBody.toString("utf8")
  received.push({
    method: req.method ?? "",
    path: req.url ?? "",
    contentType: req.headers["content-type"],
    body: raw.length > 0 ? JSON.parse(raw) : undefined
  })
  if (req.method === "GET" && req.url === "/v1/voices") return json(200, VOICES)
  if (req.method === "POST" && req.url === `/v1/text-to-speech/${RETIRED}/with-timestamps?output_format=pcm_22050`) {
    return json(400, { detail: "This voice has been retired by its owner." })
  }
  json(200, { audio_base64: pcm.toString("base64"), alignment, normalized_alignment: alignment })
}

/** Every character of the text timed: a word's letters share its span, the gap between words is the space's. */
const characterAlignment = (text: string, words: Speech["words"]) => {
  const characters: Array<string> = []
  const starts: Array<number> = []
  const ends: Array<number> = []
  const spans = Array.from(text.matchAll(/\S+/g), (match) => ({ from: match.index, to: match.index + match[0].length }))
  spans.forEach(({ from, to }, i) => {
    const word = words[i]!
    const step = (word.end - word.start) / (to - from)
    for (let c = from; c < to; c++) {
      characters.push(text[c]!)
      starts.push(word.start + step * (c - from))
      ends.push(word.start + step * (c - from + 1))
    }
    const next = words[i + 1]
    if (next !== undefined) {
      characters.push(" ")
      starts.push(word.end)
      ends.push(next.start)
    }
  })
  return { characters, character_start_times_seconds: starts, character_end_times_seconds: ends }
}

let server: StandIn
let baseUrl = ""
let dir = ""
let festival: Speech

const probe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-show_entries", "stream=channels,sample_rate:format=duration", "-of", "json", path])
  const parsed = JSON.parse(stdout) as { streams: Array<{ channels: number; sample_rate: string }>; format: { duration: string } }
  return { channels: parsed.streams[0]!.channels, sampleRate: Number(parsed.streams[0]!.sample_rate), duration: Number(parsed.format.duration) }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "elevenlabs-"))
  festival = await speak(TEXT, dir)
  expect(festival.words.length).toBe(scriptWords(TEXT).length)
  const raw = join(dir, "speech.raw")
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-i", festival.wavPath, "-f", "s16le", "-ac", "1", "-ar", "22050", raw])
  pcm = await readFile(raw)
  alignment = characterAlignment(TEXT, festival.words)
  server = await startStandIn(standIn)
  baseUrl = server.baseUrl
})

afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

/** Workspace "ws-byok" brought a key of its own, one this account does not know. */
const makeEngine = (config: { readonly baseUrl?: string; readonly apiKey?: string } = {}) =>
  makeElevenLabsSpeechEngine({
    baseUrl: config.baseUrl ?? baseUrl,
    apiKey: Redacted.make(config.apiKey ?? KEY),
    model: "eleven_multilingual_v2"
  }, workspaceKeys({ "ws-byok": "wrong-key" }))

describe("ElevenLabsSpeechEngine", () => {
  it.effect("offers the account's voices, listed as documented", () =>
    Effect.gen(function*() {
      revoked = false
      received = []
      const engine = yield* makeEngine()
      expect(received).toEqual([{ method: "GET", path: "/v1/voices", contentType: undefined, body: undefined }])
      expect(engine.engine).toBe("elevenlabs")
      expect(engine.voices).toEqual([
        { id: `elevenlabs-${RACHEL}`, name: "Rachel (american)", language: "en", gender: "female" },
        { id: `elevenlabs-${RETIRED}`, name: "Old clone", language: "de", gender: "neutral" },
        { id: "elevenlabs-noLabels0001", name: "Bare", language: "en", gender: "neutral" }
      ])
    }))

  it.effect("speaks into a valid WAV with every word at the time the voice said it", () =>
    Effect.gen(function*() {
      revoked = false
      const engine = yield* makeEngine()
      received = []
      const outputWav = join(dir, "speech.wav")
      const spoken = yield* engine.speak({ text: TEXT, voiceId: `elevenlabs-${RACHEL}`, outputWav })
      expect(received).toEqual([{
        method: "POST",
        path: `/v1/text-to-speech/${RACHEL}/with-timestamps?output_format=pcm_22050`,
        contentType: "application/json",
        body: { text: TEXT, model_id: "eleven_multilingual_v2" }
      }])

      const probed = yield* Effect.promise(() => probe(outputWav))
      expect(probed).toMatchObject({ channels: 1, sampleRate: 22050 })
      expect(Math.abs(probed.duration - spoken.durationSeconds)).toBeLessThan(0.05)
      expect((yield* Effect.promise(() => readFile(outputWav))).subarray(44)).toEqual(pcm)

      expect(spoken.words.map((w) => w.text)).toEqual(scriptWords(TEXT))
      for (const [i, w] of spoken.words.entries()) {
        expect(Math.abs(w.start - festival.words[i]!.start)).toBeLessThan(0.05)
        expect(w.end).toBeLessThanOrEqual(spoken.durationSeconds)
      }
    }))

  it.effect("reports ElevenLabs' own message when it refuses the key, listing or speaking", () =>
    Effect.gen(function*() {
      revoked = false
      const listing = yield* Effect.flip(makeEngine({ apiKey: "wrong-key" }))
      expect(listing).toBeInstanceOf(WorkFailed)
      expect(listing.message).toBe("ElevenLabs could not list its voices (HTTP 401): Invalid API key")

      const engine = yield* makeEngine()
      revoked = true
      const speaking = yield* Effect.flip(engine.speak({ text: TEXT, voiceId: `elevenlabs-${RACHEL}`, outputWav: join(dir, "x.wav") }))
      revoked = false
      expect(speaking).toBeInstanceOf(WorkFailed)
      expect(speaking.message).toBe("ElevenLabs could not speak the text (HTTP 401): Invalid API key")
    }))

  it.effect("speaks for a BYOK workspace with its own key, not the server's", () =>
    Effect.gen(function*() {
      revoked = false
      const engine = yield* makeEngine()
      const error = yield* Effect.flip(
        engine.speak({ text: TEXT, voiceId: `elevenlabs-${RACHEL}`, outputWav: join(dir, "byok.wav"), workspaceId: "ws-byok" })
      )
      expect(error.message).toBe("ElevenLabs could not speak the text (HTTP 401): Invalid API key")
      yield* engine.speak({ text: TEXT, voiceId: `elevenlabs-${RACHEL}`, outputWav: join(dir, "other.wav"), workspaceId: "ws-other" })
    }))

  it.effect("reports an error detail given as plain text", () =>
    Effect.gen(function*() {
      revoked = false
      const engine = yield* makeEngine()
      const error = yield* Effect.flip(engine.speak({ text: TEXT, voiceId: `elevenlabs-${RETIRED}`, outputWav: join(dir, "x.wav") }))
      expect(error.message).toBe("ElevenLabs could not speak the text (HTTP 400): This voice has been retired by its owner.")
    }))

  it.effect("names the base URL when ElevenLabs cannot be reached", () =>
    Effect.gen(function*() {
      const unreachable = yield* Effect.promise(unreachableUrl)
      const error = yield* Effect.flip(makeEngine({ baseUrl: unreachable }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain(unreachable)
    }))

  it.effect("is offered only when ELEVENLABS_API_KEY is set, and left out with a warning when its voices cannot be listed", () =>
    Effect.gen(function*() {
      revoked = false
      const warnings: Array<unknown> = []
      const engines = (settings: ReadonlyArray<readonly [string, string]>) =>
        Effect.provide(SpeechEngines, SpeechEnginesLive.pipe(Layer.provide(WorkspaceKeysLive()))).pipe(
          Effect.map((all) => all.map((e) => e.engine)),
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map(settings))),
          Effect.provide(Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => void warnings.push(message))))
        )
      expect(yield* engines([])).not.toContain("elevenlabs")
      const configured = yield* engines([["ELEVENLABS_API_KEY", KEY], ["ELEVENLABS_BASE_URL", baseUrl]])
      expect(configured[0]).toBe("festival")
      expect(configured).toContain("elevenlabs")
      expect(warnings).toEqual([])

      const refused = yield* engines([["ELEVENLABS_API_KEY", "wrong-key"], ["ELEVENLABS_BASE_URL", baseUrl]])
      expect(refused).not.toContain("elevenlabs")
      expect(refused[0]).toBe("festival")
      expect(String(warnings)).toContain("Invalid API key")
    }))
})
