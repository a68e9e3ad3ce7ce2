// Speech by OpenAI's text to speech (POST /v1/audio/speech). OpenAI tells nothing of when each word is
// said, so the words share, by interpolation, the part of the audio that has sound: the silence
// before and after the speech would otherwise push every caption early or late.
import { writeFile } from "node:fs/promises"
import { Effect, Redacted } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import type { EngineVoice, SpeechEngineShape, VoiceGender } from "../../domain/ports/speech-engine.ts"
import { alignSpokenWords, roundMs } from "../../domain/spoken-words.ts"
import type { ProviderKeysShape } from "../../domain/ports/provider-keys.ts"
import { apiKeyFor } from "../hosted/api-key-for.ts"
import { openAiErrorMessage } from "../hosted/openai-error-message.ts"
import { requestProvider } from "../hosted/provider-request.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface OpenAiSpeechConfig {
  /** e.g. https://api.openai.com; a trailing /v1 is accepted too. */
  readonly baseUrl: string
  /** The server's key; a BYOK workspace's own replaces it for that workspace's speech. */
  readonly apiKey: Redacted.Redacted<string>
  /** e.g. gpt-4o-mini-tts. */
  readonly model: string
}

const ENGINE = "openai"

const voice = (name: string, gender: VoiceGender): EngineVoice => ({
  id: `${ENGINE}-${name.toLowerCase()}`,
  name,
  language: "en-US",
  gender
})

/** OpenAI's built-in voices; they speak other languages too, but sound American. */
const VOICES: ReadonlyArray<EngineVoice> = [
  voice("Alloy", "neutral"),
  voice("Ash", "male"),
  voice("Coral", "female"),
  voice("Echo", "male"),
  voice("Fable", "neutral"),
  voice("Nova", "female"),
  voice("Onyx", "male"),
  voice("Sage", "female"),
  voice("Shimmer", "female")
]


/** About -40 dBFS: above the noise floor of synthetic speech, below the quietest syllable. */
const SOUND_THRESHOLD = 0.01

interface Pcm16 {
  readonly sampleRate: number
  readonly channels: number
  readonly data: Buffer
}

/**
 * The samples of a 16-bit PCM WAV. OpenAI streams its WAV, so the header's data length may be 0 or
 * 0xFFFFFFFF: then the data is the rest of the file.
 */
const readPcm16 = (wav: Buffer): Pcm16 => {
  if (wav.length < 12 || wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("the audio is not a WAV file")
  }
  let format: { readonly sampleRate: number; readonly channels: number } | undefined
  for (let at = 12; at + 8 <= wav.length;) {
    const id = wav.toString("ascii", at, at + 4)
    const length = wav.readUInt32LE(at + 4)
    if (id === "fmt ") {
      if (wav.readUInt16LE(at + 8) !== 1 || wav.readUInt16LE(at + 22) !== 16) throw new Error("the audio is not 16-bit PCM")
      format = { channels: wav.readUInt16LE(at + 10), sampleRate: wav.readUInt32LE(at + 12) }
    } else if (id === "data" && format !== undefined) {
      const end = length === 0 || at + 8 + length > wav.length ? wav.length : at + 8 + length
      const frameBytes = 2 * format.channels
      return { ...format, data: wav.subarray(at + 8, at + 8 + Math.floor((end - at - 8) / frameBytes) * frameBytes) }
    }
    at += 8 + length + (length % 2)
  }
  throw new Error("the WAV has no PCM data")
}

/** From the first to the last sample above the threshold, in seconds; all of it when none is. */
const soundSpan = ({ channels, data, sampleRate }: Pcm16): { readonly start: number; readonly end: number } => {
  const samples = data.length / 2
  const loud = (i: number) => Math.abs(data.readInt16LE(i * 2)) > SOUND_THRESHOLD * 32768
  let first = 0
  while (first < samples && !loud(first)) first++
  let last = samples - 1
  while (last > first && !loud(last)) last--
  if (first >= samples) return { start: 0, end: samples / channels / sampleRate }
  return { start: Math.floor(first / channels) / sampleRate, end: (Math.floor(last / channels) + 1) / sampleRate }
}


export const makeOpenAiSpeechEngine = (config: OpenAiSpeechConfig, keys: ProviderKeysShape): SpeechEngineShape => ({
  engine: ENGINE,
  voices: VOICES,
  speak: ({ outputWav, text, voiceId, workspaceId }) =>
    Effect.gen(function*() {
      if (!VOICES.some((v) => v.id === voiceId)) return yield* new WorkFailed({ message: `OpenAI has no voice ${voiceId}` })
      const apiKey = yield* apiKeyFor(keys, "openai", workspaceId, config.apiKey)
      const wav = yield* requestProvider({
        provider: "OpenAI",
        baseUrl: config.baseUrl,
        path: "/v1/audio/speech",
        action: "speak the text",
        init: {
          method: "POST",
          headers: { authorization: `Bearer ${Redacted.value(apiKey)}`, "content-type": "application/json" },
          body: JSON.stringify({ model: config.model, input: text, voice: voiceId.slice(ENGINE.length + 1), response_format: "wav" })
        },
        errorMessage: openAiErrorMessage
      })
      const pcm = yield* Effect.try({
        try: () => readPcm16(wav),
        catch: (error) => new WorkFailed({ message: `OpenAI returned no usable audio: ${error instanceof Error ? error.message : String(error)}` })
      })
      yield* Effect.tryPromise({
        try: () => writeFile(outputWav, wav),
        catch: (error) => new WorkFailed({ message: `The speech could not be saved: ${String(error)}` })
      })
      const durationSeconds = pcm.data.length / 2 / pcm.channels / pcm.sampleRate
      const sound = soundSpan(pcm)
      const at = (seconds: number) => Math.min(roundMs(sound.start + seconds), durationSeconds)
      const words = alignSpokenWords(text, [], sound.end - sound.start).map((w) => ({ text: w.text, start: at(w.start), end: at(w.end) }))
      return { durationSeconds, words }
    }).pipe(withSpan("OpenAiSpeechEngine.speak", { attributes: { voiceId, characters: text.length } }))
})
