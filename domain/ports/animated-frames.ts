import type { Effect } from "effect"
import type { WorkFailed } from "../errors.ts"

/** Takes bytes in order: resolves true once it can take more, false when its reader has stopped reading. */
export type ByteSink = (bytes: Uint8Array) => Promise<boolean>

/** How an animation's bytes are laid out: one APNG, or raw RGBA frames of one size at one rate. */
export type FrameEncoding =
  | { readonly _tag: "Apng" }
  | { readonly _tag: "RawRgba"; readonly width: number; readonly height: number; readonly frameRate: number }

/** Pictures the service draws (a chat, quiz cards, a game) while a renderer encodes them. */
export interface AnimatedFrames {
  readonly frames: number
  readonly encoding: FrameEncoding
  /**
   * Draws the animation into `sink`, lasting exactly `frames` frames, a picture at a time as the sink
   * takes them, so the renderer encodes while it draws. Stops early, without failing, when the sink's
   * reader stops. Succeeds with how many pictures it drew.
   */
  readonly play: (sink: ByteSink) => Effect.Effect<number, WorkFailed>
}
