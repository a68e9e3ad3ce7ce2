import { Context, type Effect } from "effect"
import type { TimedWord } from "../captions.ts"
import type { WorkFailed } from "../errors.ts"

/** Speech to timed words. Input is a 16 kHz mono WAV. */
export interface TranscriberShape {
  readonly name: string
  /** `workspaceId`: whose audio it is; a hosted transcriber then uses the workspace's own key under BYOK. */
  readonly transcribe: (wavPath: string, workspaceId?: string) => Effect.Effect<ReadonlyArray<TimedWord>, WorkFailed>
}
export class Transcriber extends Context.Tag("Transcriber")<Transcriber, TranscriberShape>() {}
