// The speech engines this server offers, in the order their voices are listed: festival's natural
// voice first where it is installed.
import { Effect, Layer, Option } from "effect"
import { SpeechEngines } from "../../domain/ports/speech-engine.ts"
import { makeFestivalSpeechEngine } from "./festival-speech-engine.ts"

export const SpeechEnginesLive = Layer.effect(
  SpeechEngines,
  Effect.gen(function*() {
    const festival = yield* makeFestivalSpeechEngine
    return [...Option.toArray(festival)]
  })
)
