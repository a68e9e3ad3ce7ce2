// Chooses the illustrator from configuration: ILLUSTRATOR = builtin (the default: draws without a model)
// | openai (an OpenAI-compatible images API). A choice without what it needs fails at startup.
import { Config, ConfigError, Effect, Layer } from "effect"
import { BuiltinIllustratorLive } from "./builtin-illustrator.ts"
import { OpenAiImagesLive } from "./openai-images.ts"

export const IllustratorFromConfig = Layer.unwrapEffect(
  Effect.gen(function*() {
    const choice = yield* Config.literal("builtin", "openai")("ILLUSTRATOR").pipe(Config.withDefault("builtin" as const))
    if (choice === "builtin") return BuiltinIllustratorLive
    const apiKey = yield* Config.redacted(Config.nonEmptyString("OPENAI_API_KEY")).pipe(
      Effect.mapError(() =>
        ConfigError.MissingData(["OPENAI_API_KEY"], "ILLUSTRATOR=openai needs OPENAI_API_KEY, the key of the OpenAI-compatible images service.")
      )
    )
    const baseUrl = yield* Config.nonEmptyString("OPENAI_BASE_URL").pipe(Config.withDefault("https://api.openai.com"))
    const model = yield* Config.nonEmptyString("OPENAI_IMAGES_MODEL").pipe(Config.withDefault("dall-e-3"))
    return OpenAiImagesLive({ baseUrl, apiKey, model })
  })
)
