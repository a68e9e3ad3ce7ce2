// Chooses the clip scorer from configuration: CLIP_SCORER = auto (the default) | offline | openai.
// `auto` takes the OpenAI-compatible chat model when OPENAI_API_KEY is set, else scores offline. A forced
// `openai` without its key fails at startup, naming it.
import { Config, ConfigError, Effect, Layer, Option } from "effect"
import { OfflineClipScorerLive } from "./offline-clip-scorer.ts"
import { OpenAiClipScorerLive } from "./openai-clip-scorer.ts"

export const ClipScorerFromConfig = Layer.unwrapEffect(
  Effect.gen(function*() {
    const choice = yield* Config.literal("auto", "offline", "openai")("CLIP_SCORER").pipe(Config.withDefault("auto" as const))
    if (choice === "offline") return OfflineClipScorerLive
    const apiKey = yield* Config.option(Config.redacted(Config.nonEmptyString("OPENAI_API_KEY")))
    if (Option.isNone(apiKey)) {
      if (choice === "auto") return OfflineClipScorerLive
      return yield* Effect.fail(ConfigError.MissingData(["OPENAI_API_KEY"], "CLIP_SCORER=openai needs OPENAI_API_KEY, the key of the OpenAI-compatible chat service."))
    }
    const baseUrl = yield* Config.nonEmptyString("OPENAI_BASE_URL").pipe(Config.withDefault("https://api.openai.com"))
    const model = yield* Config.nonEmptyString("OPENAI_CLIPS_MODEL").pipe(Config.withDefault("gpt-4o-mini"))
    return OpenAiClipScorerLive({ baseUrl, apiKey: apiKey.value, model })
  })
)
