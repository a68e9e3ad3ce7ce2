// The speech engines this server offers, in the order their voices are listed (the first voice is the
// default): festival's natural voice where it is installed, the hosted engines whose keys are set (a BYOK
// workspace's speech then goes out with its own key, where it stored one), and eSpeak NG, which ships with
// the code and speaks some forty languages, always.
import { Config, Effect, Layer, Option } from "effect"
import { ProviderKeys, type ProviderKeysShape } from "../../domain/ports/provider-keys.ts"
import { SpeechEngines } from "../../domain/ports/speech-engine.ts"
import { makeElevenLabsSpeechEngine } from "./elevenlabs-speech-engine.ts"
import { makeEspeakSpeechEngine } from "./espeak-speech-engine.ts"
import { makeFestivalSpeechEngine } from "./festival-speech-engine.ts"
import { makeOpenAiSpeechEngine } from "./openai-speech-engine.ts"

/** A hosted engine's settings, when its API key is set. */
const hostedConfig = (prefix: string, defaultBaseUrl: string, modelVariable: string, defaultModel: string) =>
  Config.option(Config.all({
    apiKey: Config.redacted(Config.nonEmptyString(`${prefix}_API_KEY`)),
    baseUrl: Config.nonEmptyString(`${prefix}_BASE_URL`).pipe(Config.withDefault(defaultBaseUrl)),
    model: Config.nonEmptyString(modelVariable).pipe(Config.withDefault(defaultModel))
  })).pipe(Effect.orDie)

const openAiEngine = (keys: ProviderKeysShape) =>
  Effect.map(
    hostedConfig("OPENAI", "https://api.openai.com", "OPENAI_TTS_MODEL", "gpt-4o-mini-tts"),
    Option.map((config) => makeOpenAiSpeechEngine(config, keys))
  )

/** A key that cannot list its voices leaves ElevenLabs out rather than stopping the service. */
const elevenLabsEngine = (keys: ProviderKeysShape) =>
  Effect.flatMap(
    hostedConfig("ELEVENLABS", "https://api.elevenlabs.io", "ELEVENLABS_MODEL", "eleven_multilingual_v2"),
    Option.match({
      onNone: () => Effect.succeedNone,
      onSome: (config) =>
        makeElevenLabsSpeechEngine(config, keys).pipe(
          Effect.asSome,
          Effect.catchAll((error) => Effect.as(Effect.logWarning(`ElevenLabs voices are not offered: ${error.message}`), Option.none()))
        )
    })
  )

export const SpeechEnginesLive = Layer.effect(
  SpeechEngines,
  Effect.gen(function*() {
    const keys = yield* ProviderKeys
    const festival = yield* makeFestivalSpeechEngine
    const openAi = yield* openAiEngine(keys)
    const elevenLabs = yield* elevenLabsEngine(keys)
    const espeak = yield* Effect.orDie(makeEspeakSpeechEngine)
    return [...Option.toArray(festival), ...Option.toArray(openAi), ...Option.toArray(elevenLabs), espeak]
  })
)
