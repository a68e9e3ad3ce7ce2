import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { SoundEffect } from "../sound-effects.ts"

/** Writes each effect as a short WAV, made by the service itself (no sound files are shipped). */
export interface SoundEffectsShape {
  readonly write: (effect: SoundEffect, outputWav: string) => Effect.Effect<void, WorkFailed>
}
export class SoundEffects extends Context.Tag("SoundEffects")<SoundEffects, SoundEffectsShape>() {}
