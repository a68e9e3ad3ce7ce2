// Speech by ElevenLabs' text to speech "with timestamps": raw PCM plus the time of every character,
// so words get the times the voice really spoke them. The voices are the account's own, listed once.
import { writeFile } from "node:fs/promises"
import { Effect, Option, Redacted, Schema } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import type { EngineVoice, SpeechEngineShape } from "../../domain/ports/speech-engine.ts"
import { alignSpokenWords, type SpokenToken } from "../../domain/spoken-words.ts"
import type { ProviderKeysShape } from "../../domain/ports/provider-keys.ts"
import { apiKeyFor } from "../hosted/api-key-for.ts"
import { requestProvider } from "../hosted/provider-request.ts"
import { pcmWavHeader } from "../media/wav-file.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface ElevenLabsConfig {
  /** e.g. https://api.elevenlabs.io; a trailing /v1 is accepted too. */
  readonly baseUrl: string
  /** The server's key: it lists the voices; a BYOK workspace's own replaces it for that workspace's speech. */
  readonly apiKey: Redacted.Redacted<string>
  /** e.g. eleven_multilingual_v2. */
  readonly model: string
}

const ENGINE = "elevenlabs"
const PROVIDER = "ElevenLabs"
/** `pcm_22050`: 16-bit little-endian mono samples at this rate, with no header. */
const SAMPLE_RATE = 22050

const Label = Schema.optional(Schema.NullOr(Schema.String))

const VoiceList = Schema.parseJson(Schema.Struct({
  voices: Schema.Array(Schema.Struct({
    voice_id: Schema.String,
    name: Schema.String,
    labels: Schema.optional(Schema.NullOr(Schema.Struct({ gender: Label, accent: Label, language: Label })))
  }))
}))

const Alignment = Schema.Struct({
  characters: Schema.Array(Schema.String),
  character_start_times_seconds: Schema.Array(Schema.Number),
  character_end_times_seconds: Schema.Array(Schema.Number)
})

const SpeechWithTimestamps = Schema.parseJson(Schema.Struct({
  audio_base64: Schema.String,
  alignment: Schema.optional(Schema.NullOr(Alignment))
}))

/** `{detail: {message}}` for refusals (a bad key, no credits); `{detail: "..."}` for some others. */
const ErrorBody = Schema.parseJson(Schema.Struct({
  detail: Schema.Union(Schema.String, Schema.Struct({ message: Schema.String }))
}))

const errorMessage = (body: string): Option.Option<string> =>
  Option.map(Schema.decodeUnknownOption(ErrorBody)(body), ({ detail }) => typeof detail === "string" ? detail : detail.message)

/** The characters between whitespace make a token: from its first character's start to its last's end. */
const tokensOfAlignment = (alignment: typeof Alignment.Type): ReadonlyArray<SpokenToken> => {
  const tokens: Array<SpokenToken> = []
  let current: SpokenToken | undefined
  alignment.characters.forEach((character, i) => {
    const start = alignment.character_start_times_seconds[i]
    const end = alignment.character_end_times_seconds[i]
    if (/^\s*$/.test(character) || start === undefined || end === undefined) {
      if (current !== undefined) tokens.push(current)
      current = undefined
    } else {
      current = current === undefined ? { text: character, start, end } : { text: current.text + character, start: current.start, end }
    }
  })
  if (current !== undefined) tokens.push(current)
  return tokens
}

const apiKeyHeader = (apiKey: Redacted.Redacted<string>) => ({ "xi-api-key": Redacted.value(apiKey) })

const listVoices = (config: ElevenLabsConfig): Effect.Effect<ReadonlyArray<EngineVoice>, WorkFailed> =>
  Effect.gen(function*() {
    const body = yield* requestProvider({
      provider: PROVIDER,
      baseUrl: config.baseUrl,
      path: "/v1/voices",
      action: "list its voices",
      init: { headers: apiKeyHeader(config.apiKey) },
      errorMessage
    })
    const { voices } = yield* Schema.decodeUnknown(VoiceList)(body.toString("utf8")).pipe(
      Effect.mapError(() => new WorkFailed({ message: `${PROVIDER} answered the voice list at ${config.baseUrl} in an unknown format.` }))
    )
    return voices.map(({ labels, name, voice_id }): EngineVoice => ({
      id: `${ENGINE}-${voice_id}`,
      // The accent tells apart voices of the same name and language ("american", "british").
      name: labels?.accent ? `${name} (${labels.accent})` : name,
      language: labels?.language || "en",
      gender: labels?.gender === "female" || labels?.gender === "male" ? labels.gender : "neutral"
    }))
  }).pipe(withSpan("ElevenLabsSpeechEngine.listVoices"))

/** Lists the account's voices first: a key that cannot list them could not speak either. */
export const makeElevenLabsSpeechEngine = (
  config: ElevenLabsConfig,
  keys: ProviderKeysShape
): Effect.Effect<SpeechEngineShape, WorkFailed> =>
  Effect.map(listVoices(config), (voices): SpeechEngineShape => ({
    engine: ENGINE,
    voices,
    speak: ({ outputWav, text, voiceId, workspaceId }) =>
      Effect.gen(function*() {
        if (!voices.some((v) => v.id === voiceId)) return yield* new WorkFailed({ message: `${PROVIDER} has no voice ${voiceId}` })
        const apiKey = yield* apiKeyFor(keys, "elevenlabs", workspaceId, config.apiKey)
        const body = yield* requestProvider({
          provider: PROVIDER,
          baseUrl: config.baseUrl,
          path: `/v1/text-to-speech/${encodeURIComponent(voiceId.slice(ENGINE.length + 1))}/with-timestamps?output_format=pcm_${SAMPLE_RATE}`,
          action: "speak the text",
          init: {
            method: "POST",
            headers: { ...apiKeyHeader(apiKey), "content-type": "application/json" },
            body: JSON.stringify({ text, model_id: config.model })
          },
          errorMessage
        })
        const speech = yield* Schema.decodeUnknown(SpeechWithTimestamps)(body.toString("utf8")).pipe(
          Effect.mapError(() => new WorkFailed({ message: `${PROVIDER} answered the speech at ${config.baseUrl} in an unknown format.` }))
        )
        const pcm = Buffer.from(speech.audio_base64, "base64")
        const samples = pcm.subarray(0, pcm.length - (pcm.length % 2))
        yield* Effect.tryPromise({
          try: () => writeFile(outputWav, Buffer.concat([pcmWavHeader(samples.length / 2, SAMPLE_RATE), samples])),
          catch: (error) => new WorkFailed({ message: `The speech could not be saved: ${String(error)}` })
        })
        const durationSeconds = samples.length / 2 / SAMPLE_RATE
        const tokens = speech.alignment ? tokensOfAlignment(speech.alignment) : []
        return { durationSeconds, words: alignSpokenWords(text, tokens, durationSeconds) }
      }).pipe(withSpan("ElevenLabsSpeechEngine.speak", { attributes: { voiceId, characters: text.length } }))
  }))
