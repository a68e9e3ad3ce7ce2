// The voices of every configured speech engine, and speaking with one of them by its id.
import { Effect } from "effect"
import { InvalidInput } from "../../../../domain/errors.ts"
import { type EngineVoice, type SpeechEngineShape, SpeechEngines } from "../../../../domain/ports/speech-engine.ts"

export interface ChosenVoice {
  readonly voice: EngineVoice
  readonly engine: SpeechEngineShape
}

export const allVoices = Effect.map(SpeechEngines, (engines) =>
  engines.flatMap((engine) => engine.voices.map((voice) => ({ voice, engine }))))

/** The voice a `voiceId` names; none given = the first voice listed. */
export const chooseVoice = (voiceId: string | undefined): Effect.Effect<ChosenVoice, InvalidInput, SpeechEngines> =>
  Effect.flatMap(allVoices, (voices) => {
    const chosen = voiceId === undefined ? voices[0] : voices.find((v) => v.voice.id === voiceId)
    if (chosen !== undefined) return Effect.succeed(chosen)
    return new InvalidInput({
      field: "voiceId",
      message: voices.length === 0
        ? "no speech engine is configured on this server"
        : `unknown voice ${JSON.stringify(voiceId)}; GET /v1/voices lists the voices (e.g. ${voices.slice(0, 3).map((v) => v.voice.id).join(", ")})`
    })
  })

export const voicePreviewUrl = (baseUrl: string, voiceId: string): string =>
  `${baseUrl}/voices/${encodeURIComponent(voiceId)}/preview.mp3`
