import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { GameKind } from "../gameplay.ts"

export interface FootageRequest {
  readonly game: GameKind
  /** The same seed gives the same footage, frame for frame. */
  readonly seed: number
  readonly seconds: number
  readonly width: number
  readonly height: number
  readonly frameRate: 30 | 60
  /** Where the silent H.264 mp4 is written, round(seconds * frameRate) frames long. */
  readonly outputMp4: string
  /** Called with the fraction done (0..1) while making it. */
  readonly onProgress?: (fraction: number) => void
}

/** Makes gameplay footage to narrate over: a game played by the computer, with no sound. */
export interface FootageMakerShape {
  readonly make: (request: FootageRequest) => Effect.Effect<void, WorkFailed>
}
export class FootageMaker extends Context.Tag("FootageMaker")<FootageMaker, FootageMakerShape>() {}
