import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { FrameSample } from "../text-regions.ts"

export interface ScanRequest {
  /** A video, or frames sampled from one at the detector's `frameSize` (then the rest describes that video). */
  readonly input: string
  /** The video's size (display, rotation applied) and length, from the probe: boxes come back in its pixels. */
  readonly width: number
  readonly height: number
  readonly durationSeconds: number
  /** Frames sampled per second (e.g. 2). */
  readonly samplesPerSecond: number
  /** Boxes scoring below this are dropped (e.g. 0.8 to find regions, lower for the check after removal). */
  readonly minScore: number
  /** Called with the fraction of samples done (0..1). */
  readonly onProgress?: (fraction: number) => void
}

/** Finds burned-in text on frames sampled through a video, offline. Failures are WorkFailed a person can act on. */
export interface TextDetectorShape {
  readonly scan: (request: ScanRequest) => Effect.Effect<ReadonlyArray<FrameSample>, WorkFailed>
  /**
   * The size a `width` x `height` video's frames are scaled to (by area averaging) to be looked at: a
   * video of frames sampled from it at this size scans as the video itself would, at the same rate.
   */
  readonly frameSize: (width: number, height: number) => { readonly width: number; readonly height: number }
}
export class TextDetector extends Context.Tag("TextDetector")<TextDetector, TextDetectorShape>() {}
