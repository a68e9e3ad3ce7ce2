import { Context, type Effect } from "effect"
import type { TimedWord } from "../captions.ts"
import type { WorkFailed } from "../errors.ts"

/** Speech to timed words. Input is a 16 kHz mono WAV. */
export interface TranscriberShape {
  /** The engine: `whisper` (whisper.cpp), `openai` (an OpenAI-compatible service) or `pocketsphinx`. */
  readonly name: "whisper" | "openai" | "pocketsphinx"
  /** The model it recognises with: a ggml file's name, the service's model id, pocketsphinx's `en-us`. */
  readonly model: string
  /** The ISO 639-1 codes it recognises (`domain/languages.ts`). */
  readonly languages: ReadonlyArray<string>
  /**
   * `workspaceId`: whose audio it is; a hosted transcriber then uses the workspace's own key under BYOK.
   * `language`: one of `languages`; left out, a multilingual engine detects it.
   */
  readonly transcribe: (wavPath: string, workspaceId?: string, language?: string) => Effect.Effect<ReadonlyArray<TimedWord>, WorkFailed>
}
export class Transcriber extends Context.Tag("Transcriber")<Transcriber, TranscriberShape>() {}
