import { Context, type Effect } from "effect"
import type { CaptionTrack } from "../captions.ts"
import type { CheckStrips } from "../removal-check.ts"
import type { WorkFailed } from "../errors.ts"
import type { FrameRate, RenderFormat } from "../rules.ts"
import type { TextRegion } from "../text-regions.ts"
import type { Framing } from "../reframe.ts"
import type { Cut } from "../trim.ts"

export interface ProbeResult {
  readonly bytes: number
  readonly durationSeconds: number
  /** Display size: rotation metadata already applied. */
  readonly width: number
  readonly height: number
  readonly frameRate: number
  readonly hasVideo: boolean
  readonly hasAudio: boolean
  /** A single picture (PNG, JPEG, WebP...), not a moving one. */
  readonly still: boolean
}

export interface BurnRequest {
  readonly input: string
  readonly output: string
  /** The caption pages to burn in, drawn in this style at the output's size, on the output's timeline. */
  readonly captions: CaptionTrack
  /** Spans of the input left out (in order and apart, on frame boundaries); the sound fades out and in at each cut. None when left out. */
  readonly cuts?: ReadonlyArray<Cut>
  /** Where the output's windows are in the source (reframing); `width` x `height` is then the framing's output. None: the whole picture, scaled. */
  readonly framing?: Framing
  readonly format: RenderFormat
  readonly frameRate: FrameRate
  readonly width: number
  readonly height: number
  /** Called with the fraction done (0..1) while encoding. */
  readonly onProgress?: (fraction: number) => void
}

/**
 * Frames of a wipe's picture as it goes to the encoder: `perSecond` a second (sample i is the frame
 * shown before (i + 0.5) / perSecond s), scaled by area averaging to `width` x `height` in RGB, kept
 * losslessly in the video file `output`.
 */
export interface WipeSamples {
  readonly output: string
  readonly perSecond: number
  /** The frames' size: the picture's, or with `strips` the stack's, scaled. */
  readonly width: number
  readonly height: number
  /** Keeps only these areas of the picture, stacked one under another (each as wide as the stack, padded black). */
  readonly strips?: CheckStrips
}

/** A sound placed on the mix's timeline. */
export interface AudioCue {
  readonly path: string
  readonly atSeconds: number
  /** Gain: 1 = as recorded. */
  readonly volume: number
}

/** The media toolbox (ffmpeg/ffprobe). Failures are WorkFailed with a message a person can act on. */
export interface MediaEngineShape {
  /**
   * What the file holds, read without decoding more than its first picture: WorkFailed when it is not
   * media, its picture cannot be decoded, or it is above MAX_DECODED_PIXELS (then nothing decodes it).
   */
  readonly probe: (path: string) => Effect.Effect<ProbeResult, WorkFailed>
  /** 16 kHz mono 16-bit WAV, what recognizers want; with `range`, only those seconds of it. */
  readonly extractAudio: (
    input: string,
    outputWav: string,
    range?: { readonly start: number; readonly end: number }
  ) => Effect.Effect<void, WorkFailed>
  /**
   * The seconds `range` of the input as an mp4 of its own that starts exactly there (a clip's source):
   * encoded again at a quality the later render loses nothing to, the sound kept.
   */
  readonly cutSpan: (input: string, output: string, range: { readonly start: number; readonly end: number }) => Effect.Effect<void, WorkFailed>
  /** Burns the captions into the picture (or onto green) in one H.264/AAC encode with +faststart. */
  readonly burnCaptions: (request: BurnRequest) => Effect.Effect<void, WorkFailed>
  /** MP3 (VBR around 130 kb/s) for speech handed to clients. */
  readonly encodeMp3: (inputWav: string, outputMp3: string) => Effect.Effect<void, WorkFailed>
  /** Every cue at its time (overlaps add up), as one MP3 lasting exactly `durationSeconds`, silence where nothing plays. */
  readonly mixAudio: (request: {
    readonly cues: ReadonlyArray<AudioCue>
    readonly durationSeconds: number
    readonly outputMp3: string
  }) => Effect.Effect<void, WorkFailed>
  /**
   * Wipes each region while it is present (captions for their span, watermarks throughout) in one
   * encode: same size, frame rate and length, audio copied untouched.
   */
  readonly wipeRegions: (request: {
    readonly input: string
    readonly output: string
    readonly regions: ReadonlyArray<TextRegion>
    /** Also keeps some frames of the wiped picture, so that looking at the result needs no decode of it. */
    readonly samples?: WipeSamples
    readonly onProgress?: (fraction: number) => void
  }) => Effect.Effect<void, WorkFailed>
  readonly thumbnail: (input: string, outputJpg: string, atSeconds: number) => Effect.Effect<void, WorkFailed>
  /** The loudness (RMS, dBFS) of each span of seconds of a WAV: how hard each word was said. */
  readonly spanLoudness: (wavPath: string, spans: ReadonlyArray<{ readonly start: number; readonly end: number }>) => Effect.Effect<ReadonlyArray<number>, WorkFailed>
  /** An animated WebP (looping) of captions over a background: what a caption template looks like in motion. */
  readonly captionPreview: (request: {
    readonly captions: CaptionTrack
    /** An ffmpeg lavfi source of the picture's size, e.g. `color=c=gray:s=270x480`. */
    readonly background: string
    readonly width: number
    readonly height: number
    readonly seconds: number
    readonly outputWebp: string
  }) => Effect.Effect<void, WorkFailed>
}
export class MediaEngine extends Context.Tag("MediaEngine")<MediaEngine, MediaEngineShape>() {}
