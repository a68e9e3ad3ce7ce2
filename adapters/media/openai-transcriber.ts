// Speech recognition by an OpenAI-compatible service: POST /v1/audio/transcriptions with word timestamps.
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { readFile } from "node:fs/promises"
import { basename } from "node:path"
import { WHISPER_LANGUAGES } from "../../domain/languages.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { ProviderKeys } from "../../domain/ports/provider-keys.ts"
import { Transcriber } from "../../domain/ports/transcriber.ts"
import { apiKeyFor } from "../hosted/api-key-for.ts"

export interface OpenAiConfig {
  /** e.g. https://api.openai.com; a trailing /v1 is accepted too. */
  readonly baseUrl: string
  /** The server's key; a BYOK workspace's own replaces it for that workspace's audio. */
  readonly apiKey: string
  /** e.g. whisper-1. */
  readonly model: string
}

/** Long enough for OpenAI's largest upload (25 MB, about 13 minutes of 16 kHz WAV). */
const TIMEOUT = "10 minutes"

const VerboseTranscription = Schema.Struct({
  words: Schema.Array(Schema.Struct({ word: Schema.String, start: Schema.Number, end: Schema.Number }))
})

const ErrorBody = Schema.parseJson(Schema.Struct({ error: Schema.Struct({ message: Schema.String }) }))

const endpoint = (baseUrl: string): string =>
  `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/audio/transcriptions`

export const OpenAiTranscriberLive = (config: OpenAiConfig) =>
  Layer.effect(
    Transcriber,
    Effect.map(ProviderKeys, (keys) => Transcriber.of({
      name: "openai",
      model: config.model,
      languages: WHISPER_LANGUAGES,
      transcribe: (wavPath, { language, workspaceId } = {}) =>
        Effect.gen(function*() {
          const url = endpoint(config.baseUrl)
          const apiKey = yield* apiKeyFor(keys, "openai", workspaceId, Redacted.make(config.apiKey))
          const audio = yield* Effect.promise(() => readFile(wavPath))
          const form = new FormData()
          form.append("file", new Blob([audio], { type: "audio/wav" }), basename(wavPath))
          form.append("model", config.model)
          form.append("response_format", "verbose_json")
          form.append("timestamp_granularities[]", "word")
          if (language !== undefined) form.append("language", language)
          const { body, response } = yield* Effect.tryPromise({
            // The signal aborts the request, body included, when the timeout interrupts it.
            try: async (signal) => {
              const response = await fetch(url, {
                method: "POST",
                headers: { authorization: `Bearer ${Redacted.value(apiKey)}` },
                body: form,
                signal
              })
              return { response, body: await response.text() }
            },
            catch: (e) =>
              new WorkFailed({
                message: `The transcription service at ${url} could not be reached: ${
                  e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : e
                }`
              })
          })
          if (!response.ok) {
            const detail = Option.match(Schema.decodeUnknownOption(ErrorBody)(body), {
              onSome: (parsed) => parsed.error.message,
              onNone: () => body.slice(0, 300) || response.statusText
            })
            return yield* new WorkFailed({
              message: `The transcription service refused the audio (HTTP ${response.status}): ${detail}`
            })
          }
          const transcription = yield* Schema.decodeUnknown(Schema.parseJson(VerboseTranscription))(body).pipe(
            Effect.mapError(() =>
              new WorkFailed({
                message: `The transcription service at ${url} returned no word timings: ` +
                  `it must support response_format=verbose_json with timestamp_granularities[]=word.`
              })
            )
          )
          return transcription.words
            .map((w) => ({ text: w.word.trim(), start: w.start, end: w.end }))
            .filter((w) => w.text.length > 0)
        }).pipe(
          Effect.timeoutFail({
            duration: TIMEOUT,
            onTimeout: () => new WorkFailed({ message: `The transcription service did not answer within ${TIMEOUT}.` })
          }),
          Effect.withSpan("OpenAiTranscriber.transcribe")
        )
    }))
  )
