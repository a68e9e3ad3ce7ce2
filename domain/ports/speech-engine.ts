import { Context, type Effect } from "effect"
import type { TimedWord } from "../captions.ts"
import type { WorkFailed } from "../errors.ts"

export type VoiceGender = "female" | "male" | "neutral"

/** A voice as an engine offers it; `id` is unique across engines (the engine's name is its prefix). */
export interface EngineVoice {
  readonly id: string
  readonly name: string
  /** BCP 47 tag, e.g. `en-US`. */
  readonly language: string
  readonly gender: VoiceGender
}

export interface SpeakRequest {
  readonly text: string
  readonly voiceId: string
  /** Where the engine writes the speech: a WAV file (any rate, mono or stereo). */
  readonly outputWav: string
  /** Whose speech it is: a hosted engine then uses the workspace's own key under BYOK. None for the server's samples. */
  readonly workspaceId?: string
}

export interface SpokenText {
  readonly durationSeconds: number
  /**
   * Every word of the text with its time in the audio, in order, as the engine timed it; where an
   * engine gives no time for a word, the adapter fills it in by interpolation.
   */
  readonly words: ReadonlyArray<TimedWord>
}

/** One text-to-speech engine. Failures are WorkFailed with a message a person can act on. */
export interface SpeechEngineShape {
  /** `festival`, `espeak-ng`, `openai`, `elevenlabs`: the prefix of its voice ids. */
  readonly engine: string
  readonly voices: ReadonlyArray<EngineVoice>
  readonly speak: (request: SpeakRequest) => Effect.Effect<SpokenText, WorkFailed>
}

/** Every configured engine, in the order their voices are listed (the first voice is the default). */
export class SpeechEngines extends Context.Tag("SpeechEngines")<SpeechEngines, ReadonlyArray<SpeechEngineShape>>() {}
