// Speech recognition by an OpenAI-compatible service: POST /v1/audio/transcriptions with word timestamps.
// Audio over the service's upload limit goes in chunks cut at quiet points, whose word times are shifted
// by where each chunk starts.
import { Effect, Layer, Option, Redacted, Schema } from "effect"
import { mkdtemp, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import { WHISPER_LANGUAGES } from "../../domain/languages.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { vocabularyPrompt } from "../../domain/vocabulary.ts"
import { ProviderKeys } from "../../domain/ports/provider-keys.ts"
import { Transcriber } from "../../domain/ports/transcriber.ts"
import { apiKeyFor } from "../hosted/api-key-for.ts"
import { openAiErrorMessage } from "../hosted/openai-error-message.ts"
import { CHUNK_HEADER_BYTES, chunksOf, readLayout, SAMPLE_RATE, writeChunk } from "./wav-chunks.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface OpenAiConfig {
  /** e.g. https://api.openai.com; a trailing /v1 is accepted too. */
  readonly baseUrl: string
  /** The server's key; a BYOK workspace's own replaces it for that workspace's audio. */
  readonly apiKey: string
  /** e.g. whisper-1. */
  readonly model: string
  /** The largest WAV sent in one request; a longer one goes in chunks cut at quiet points. Left out: MAX_UPLOAD_BYTES. */
  readonly maxUploadBytes?: number
}

/**
 * OpenAI refuses a request body over 26214400 bytes (25 MiB: "Maximum content size limit (26214400)
 * exceeded"); the multipart envelope around the file (boundaries, the model and format fields) is well
 * under the 64 KiB kept for it. At 32000 bytes a second, about 13.6 minutes of audio.
 */
export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024 - 64 * 1024

/** Long enough for the largest upload; each chunk of a longer file has its own. */
const TIMEOUT = "10 minutes"

const VerboseTranscription = Schema.Struct({
  words: Schema.Array(Schema.Struct({ word: Schema.String, start: Schema.Number, end: Schema.Number }))
})


const endpoint = (baseUrl: string): string =>
  `${baseUrl.replace(/\/+$/, "").replace(/\/v1$/, "")}/v1/audio/transcriptions`

/** One upload: the words of one WAV file, times from its start. */
const transcribeFile = (
  request: {
    readonly url: string
    readonly apiKey: Redacted.Redacted<string>
    readonly model: string
    readonly language: string | undefined
    /** The workspace's vocabulary, which the service's models take as spellings to favour. */
    readonly prompt: string | undefined
  },
  wavPath: string
) =>
  Effect.gen(function*() {
    const { apiKey, language, model, prompt, url } = request
    const audio = yield* Effect.promise(() => readFile(wavPath))
    const form = new FormData()
    form.append("file", new Blob([audio], { type: "audio/wav" }), basename(wavPath))
    form.append("model", model)
    form.append("response_format", "verbose_json")
    form.append("timestamp_granularities[]", "word")
    if (language !== undefined) form.append("language", language)
    if (prompt !== undefined) form.append("prompt", prompt)
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
      const detail = Option.getOrElse(openAiErrorMessage(body), () => body.slice(0, 300) || response.statusText)
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
    })
  )

export const OpenAiTranscriberLive = (config: OpenAiConfig) =>
  Layer.effect(
    Transcriber,
    Effect.map(ProviderKeys, (keys) => Transcriber.of({
      name: "openai",
      model: config.model,
      languages: WHISPER_LANGUAGES,
      transcribe: (wavPath, { language, vocabulary, workspaceId } = {}) =>
        Effect.gen(function*() {
          const request = {
            url: endpoint(config.baseUrl),
            apiKey: yield* apiKeyFor(keys, "openai", workspaceId, Redacted.make(config.apiKey)),
            model: config.model,
            language,
            prompt: vocabularyPrompt(vocabulary ?? [])
          }
          const maxUploadBytes = config.maxUploadBytes ?? MAX_UPLOAD_BYTES
          if ((yield* Effect.promise(() => stat(wavPath))).size <= maxUploadBytes) {
            yield* Effect.annotateCurrentSpan("chunks", 1)
            return yield* transcribeFile(request, wavPath)
          }
          const layout = yield* readLayout(wavPath)
          const chunks = yield* chunksOf(wavPath, layout, {
            maxSamples: Math.floor((maxUploadBytes - CHUNK_HEADER_BYTES) / 2)
          })
          yield* Effect.annotateCurrentSpan("chunks", chunks.length)
          const dir = yield* Effect.acquireRelease(
            Effect.promise(() => mkdtemp(join(tmpdir(), "openai-transcriber-"))),
            (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
          )
          // One after another: one chunk on disk at a time, and no burst against the provider's rate limit.
          const words = yield* Effect.forEach(chunks, (chunk, i) => {
            const chunkPath = join(dir, `chunk-${i}.wav`)
            const offset = chunk.start / SAMPLE_RATE
            return writeChunk(wavPath, layout, chunk, chunkPath).pipe(
              Effect.zipRight(transcribeFile(request, chunkPath)),
              Effect.map((words) => words.map((w) => ({ ...w, start: offset + w.start, end: offset + w.end }))),
              Effect.ensuring(Effect.promise(() => rm(chunkPath, { force: true })))
            )
          })
          return words.flat()
        }).pipe(Effect.scoped, withSpan("OpenAiTranscriber.transcribe"))
    }))
  )
