// Chooses the transcriber from configuration: TRANSCRIBER = pocketsphinx (the default) | whisper | openai.
// A choice without what it needs fails at startup, naming the missing setting.
import { Config, ConfigError, Effect, Layer, Option, Redacted } from "effect"
import { OpenAiTranscriberLive } from "./openai-transcriber.ts"
import { PocketsphinxTranscriberLive } from "./pocketsphinx-transcriber.ts"
import { WhisperTranscriberLive } from "./whisper-transcriber.ts"

const required = <A>(config: Config.Config<A>, name: string, why: string) =>
  Effect.mapError(config, () => ConfigError.MissingData([name], why))

export const TranscriberFromConfig = Layer.unwrapEffect(
  Effect.gen(function*() {
    const choice = yield* Config.literal("pocketsphinx", "whisper", "openai")("TRANSCRIBER").pipe(
      Config.withDefault("pocketsphinx" as const)
    )
    switch (choice) {
      case "pocketsphinx":
        return PocketsphinxTranscriberLive
      case "whisper": {
        const modelPath = yield* required(
          Config.nonEmptyString("WHISPER_MODEL"),
          "WHISPER_MODEL",
          "TRANSCRIBER=whisper needs WHISPER_MODEL, the path of a whisper.cpp ggml model file " +
            "(for example /models/ggml-base.en-q5_1.bin)."
        )
        const sha1 = yield* Config.option(Config.nonEmptyString("WHISPER_MODEL_SHA1"))
        return WhisperTranscriberLive(Option.match(sha1, { onNone: () => ({ modelPath }), onSome: (sha1) => ({ modelPath, sha1 }) }))
      }
      case "openai": {
        const apiKey = yield* required(
          Config.redacted(Config.nonEmptyString("OPENAI_API_KEY")),
          "OPENAI_API_KEY",
          "TRANSCRIBER=openai needs OPENAI_API_KEY, the key of the OpenAI-compatible transcription service."
        )
        const baseUrl = yield* Config.nonEmptyString("OPENAI_BASE_URL").pipe(Config.withDefault("https://api.openai.com"))
        const model = yield* Config.nonEmptyString("OPENAI_TRANSCRIBE_MODEL").pipe(Config.withDefault("whisper-1"))
        return OpenAiTranscriberLive({ baseUrl, apiKey: Redacted.value(apiKey), model })
      }
    }
  })
)
