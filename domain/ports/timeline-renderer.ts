import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { Timeline } from "../timeline.ts"
import type { AnimatedFrames } from "./animated-frames.ts"

export interface TimelineRenderRequest {
  readonly timeline: Timeline
  /** The animations the timeline's Animation visuals and overlays name, each drawn while it is encoded. */
  readonly animations?: ReadonlyMap<string, AnimatedFrames>
  /** The mp4 to write. */
  readonly output: string
  /** A folder for the renderer's own files (caption script, overlay texts); created when missing. */
  readonly workDir: string
  /** Called with the fraction done (0..1) while encoding. */
  readonly onProgress?: (fraction: number) => void
}

/** Timeline -> one H.264/AAC mp4 lasting exactly the timeline. Failures are WorkFailed a person can act on. */
export interface TimelineRendererShape {
  readonly render: (request: TimelineRenderRequest) => Effect.Effect<void, WorkFailed>
}
export class TimelineRenderer extends Context.Tag("TimelineRenderer")<TimelineRenderer, TimelineRendererShape>() {}
