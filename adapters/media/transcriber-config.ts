// Chooses the transcriber from configuration: TRANSCRIBER = auto (the default) | whisper | openai |
// pocketsphinx. `auto` takes the most accurate engine it can have: whisper.cpp when a model is installed
// (WHISPER_MODEL, or the best ggml model in MODELS_DIR), else the OpenAI-compatible service when its key
// is set, else pocketsphinx, which is far less accurate on real speech. A forced choice without what it
// needs fails at startup, naming the missing setting.
import { Config, ConfigError, Effect, Layer, Option, Redacted } from "effect"
import { MAX_UPLOAD_BYTES, OpenAiTranscriberLive } from "./openai-transcriber.ts"
import { PocketsphinxTranscriberLive } from "./pocketsphinx-transcriber.ts"
import { findInstalledModel, modelsDirConfig } from "./whisper-models.ts"
import { whisperAddonInstalled, WhisperTranscriberLive } from "./whisper-transcriber.ts"

const required = <A>(config: Config.Config<A>, name: string, why: string) =>
  Effect.mapError(config, () => ConfigError.MissingData([name], why))

const whisperLayer = (modelPath: string, sha1: Option.Option<string>) =>
  WhisperTranscriberLive(Option.match(sha1, { onNone: () => ({ modelPath }), onSome: (sha1) => ({ modelPath, sha1 }) }))

const whisperSha1 = Config.option(Config.nonEmptyString("WHISPER_MODEL_SHA1"))

const openAiLayer = (apiKey: Redacted.Redacted<string>) =>
  Effect.gen(function*() {
    const baseUrl = yield* Config.nonEmptyString("OPENAI_BASE_URL").pipe(Config.withDefault("https://api.openai.com"))
    const model = yield* Config.nonEmptyString("OPENAI_TRANSCRIBE_MODEL").pipe(Config.withDefault("whisper-1"))
    // A limit of megabytes: less would mean a request for every few seconds of audio.
    const maxUploadBytes = yield* Config.integer("OPENAI_MAX_UPLOAD_BYTES").pipe(
      Config.validate({ message: "OPENAI_MAX_UPLOAD_BYTES must be at least 1000000", validation: (n) => n >= 1_000_000 }),
      Config.withDefault(MAX_UPLOAD_BYTES)
    )
    return OpenAiTranscriberLive({ baseUrl, apiKey: Redacted.value(apiKey), model, maxUploadBytes })
  })

/** `auto`: the first engine of whisper, openai and pocketsphinx that can run here. */
const automatic = Effect.gen(function*() {
  const configured = yield* Config.option(Config.nonEmptyString("WHISPER_MODEL"))
  if (whisperAddonInstalled()) {
    if (Option.isSome(configured)) return whisperLayer(configured.value, yield* whisperSha1)
    const installed = yield* findInstalledModel(yield* modelsDirConfig)
    if (Option.isSome(installed)) return whisperLayer(installed.value.path, Option.some(installed.value.sha1))
  }
  const apiKey = yield* Config.option(Config.redacted(Config.nonEmptyString("OPENAI_API_KEY")))
  if (Option.isSome(apiKey)) return yield* openAiLayer(apiKey.value)
  return PocketsphinxTranscriberLive
})

export const TranscriberFromConfig = Layer.unwrapEffect(
  Effect.gen(function*() {
    const choice = yield* Config.literal("auto", "pocketsphinx", "whisper", "openai")("TRANSCRIBER").pipe(
      Config.withDefault("auto" as const)
    )
    switch (choice) {
      case "auto":
        return yield* automatic
      case "pocketsphinx":
        return PocketsphinxTranscriberLive
      case "whisper": {
        const modelPath = yield* required(
          Config.nonEmptyString("WHISPER_MODEL"),
          "WHISPER_MODEL",
          "TRANSCRIBER=whisper needs WHISPER_MODEL, the path of a whisper.cpp ggml model file " +
            "(for example /models/ggml-base.en-q5_1.bin; `npm run models -- pull whisper-base.en-q5_1` fetches one)."
        )
        return whisperLayer(modelPath, yield* whisperSha1)
      }
      case "openai": {
        const apiKey = yield* required(
          Config.redacted(Config.nonEmptyString("OPENAI_API_KEY")),
          "OPENAI_API_KEY",
          "TRANSCRIBER=openai needs OPENAI_API_KEY, the key of the OpenAI-compatible transcription service."
        )
        return yield* openAiLayer(apiKey)
      }
    }
  })
)
