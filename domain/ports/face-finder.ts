import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { SourceFaces } from "../reframe.ts"

export interface FaceSearch {
  readonly input: string
  /** The video's size (display, rotation applied) and length, from the probe: faces come back in its pixels. */
  readonly width: number
  readonly height: number
  readonly durationSeconds: number
  /** Called with the fraction of the video looked at (0..1). */
  readonly onProgress?: (fraction: number) => void
}

/** Finds faces on frames sampled through a video, and where its scenes change, offline. Failures are WorkFailed a person can act on. */
export interface FaceFinderShape {
  readonly find: (search: FaceSearch) => Effect.Effect<SourceFaces, WorkFailed>
}
export class FaceFinder extends Context.Tag("FaceFinder")<FaceFinder, FaceFinderShape>() {}
