import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { GameKind } from "../gameplay.ts"
import type { AnimatedFrames } from "./animated-frames.ts"

export interface FootageRequest {
  readonly game: GameKind
  /** The same seed gives the same footage, frame for frame. */
  readonly seed: number
  readonly seconds: number
  /** The size the footage fills: drawn at it, or, when big, at the same shape with fewer pixels for the renderer to scale up. */
  readonly width: number
  readonly height: number
  readonly frameRate: 30 | 60
}

/** Gameplay footage to narrate over: a game played by the computer, with no sound. */
export interface FootageMakerShape {
  /** The game played for round(seconds * frameRate) frames, drawn while the renderer encodes them. */
  readonly footage: (request: FootageRequest) => Effect.Effect<AnimatedFrames, WorkFailed>
}
export class FootageMaker extends Context.Tag("FootageMaker")<FootageMaker, FootageMakerShape>() {}
