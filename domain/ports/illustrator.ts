import { Context, type Effect } from "effect"
import type { ArtStyle } from "../art-styles.ts"
import type { WorkFailed } from "../errors.ts"

export interface IllustrationRequest {
  /** What the picture shows, in a person's words. */
  readonly prompt: string
  readonly style: ArtStyle
  /** The same request with the same seed gives the same picture where the illustrator allows it. */
  readonly seed: number
  readonly width: number
  readonly height: number
  /** Where the PNG is written, exactly width x height. */
  readonly outputPng: string
  /** Whose picture it is: a hosted illustrator then uses the workspace's own key under BYOK. None for the server's samples. */
  readonly workspaceId?: string
}

/** Draws a picture for a prompt in an art style. */
export interface IllustratorShape {
  readonly name: string
  /** How many pictures it draws at once: one that paints here gains from overlapping its encoding; a hosted one waits on the network. */
  readonly concurrency: number
  readonly illustrate: (request: IllustrationRequest) => Effect.Effect<void, WorkFailed>
}
export class Illustrator extends Context.Tag("Illustrator")<Illustrator, IllustratorShape>() {}
