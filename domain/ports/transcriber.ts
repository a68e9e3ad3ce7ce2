import { Context, type Effect } from "effect"
import type { TimedWord } from "../captions.ts"
import type { WorkFailed } from "../errors.ts"

/** What a transcription may be told besides the audio. */
export interface TranscriptionHints {
  /** Whose audio it is; a hosted transcriber then uses the workspace's own key under BYOK. */
  readonly workspaceId?: string | undefined
  /** One of the engine's `languages`; left out, a multilingual engine detects it. */
  readonly language?: string | undefined
  /** Names and terms the speech may hold (the workspace's vocabulary), for engines that can be told. */
  readonly vocabulary?: ReadonlyArray<string> | undefined
}

/** Speech to timed words. Input is a 16 kHz mono WAV. */
export interface TranscriberShape {
  /** The engine: `whisper` (whisper.cpp), `openai` (an OpenAI-compatible service) or `pocketsphinx`. */
  readonly name: "whisper" | "openai" | "pocketsphinx"
  /** The model it recognises with: a ggml file's name, the service's model id, pocketsphinx's `en-us`. */
  readonly model: string
  /** The ISO 639-1 codes it recognises (`domain/languages.ts`). */
  readonly languages: ReadonlyArray<string>
  readonly transcribe: (wavPath: string, hints?: TranscriptionHints) => Effect.Effect<ReadonlyArray<TimedWord>, WorkFailed>
}
export class Transcriber extends Context.Tag("Transcriber")<Transcriber, TranscriberShape>() {}
