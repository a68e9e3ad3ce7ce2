// Faces found offline: the tiny face detector of @vladmandic/face-api (its weights ship in the npm
// package; nothing is downloaded), run by TensorFlow.js's WebAssembly backend in a worker thread, on
// frames that one ffmpeg run samples at low resolution while it also scores scene changes. Measured on
// this kind of machine (2 cores): the tiny detector at its 416 input found every face of two test
// talks in about 65 ms a frame (scores 0.45-0.86); at 320 it missed a third of them and scored the rest
// lower, at 224 it found none; SSD MobileNet took 410 ms a frame. Where a picture shows two faces or
// more, the tiny landmark net measures their mouths on every sample (about 10 ms a face), for the domain
// to tell who speaks.
import { readFile, rm } from "node:fs/promises"
import { Effect, Layer } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { FaceFinder, type FaceSearch } from "../../domain/ports/face-finder.ts"
import type { FaceBox, FaceSample, SourceFaces } from "../../domain/reframe.ts"
import { filterValue, lastError, QUIET } from "./ffmpeg-process.ts"
import { framePipe } from "./frame-reader.ts"
import { startModelThread } from "./model-thread.ts"
import { evenSize } from "../../domain/even-pixels.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** Frames looked at a second: a speaker moves little in a second, and the path runs smoothly between. */
const SAMPLES_PER_SECOND = 1
/** The sampled frames' longer side: the detector's input, so nothing is scaled twice. */
const LONG_SIDE = 416
const INPUT_SIZE = 416
const MIN_SCORE = 0.35
/** ffmpeg's scene score (0..1) above which a frame starts a new scene. */
const SCENE_SCORE = 0.35
const SCENE_SIZE = { width: 128, height: 72 }

/**
 * A sample whose picture around every face found last is unchanged keeps those faces without running the
 * detector, for at most this long: a face that enters a still shot is found within it.
 */
const REDETECT_SECONDS = 5
/** Unchanged: the mean difference per colour channel around the faces, out of 255, is below this. */
const STILL_BELOW = 6
/**
 * The margin looked at around a face, as a share of its size: a head that moves shows there first. A tenth:
 * at a quarter, a background moving close behind still speakers (a screen, the bench's test picture) made
 * the two-person talk look again on half its samples instead of every 5 s (30 detections a minute, not 12).
 */
const MARGIN = 0.1
/**
 * Pure colour: a pixel this saturated ((max - min) / max) and this bright. The tiny detector scores pure
 * hues (colour bars, flat motion graphics) as faces, up to 1.00; skin under ordinary light is far less
 * saturated, and grey or dim pixels never count (black and white video, dark hair).
 */
const PURE_SATURATION = 0.85
const PURE_BRIGHTNESS = 64
/** A box more than this share pure colour is not a face: such boxes measured 88-98%, faces 0-6%. */
const PURE_SHARE = 0.5

interface Detected {
  readonly rgb: Buffer
  /** In the sampled frame's pixels. */
  readonly faces: ReadonlyArray<FaceBox>
  readonly seconds: number
}

/** The pixels of a face's box widened by `margin` (a share of its size) each side, within the picture: columns x0..x1, rows y0..y1. */
const pixelsOf = (face: FaceBox, margin: number, width: number, height: number) => ({
  x0: Math.max(0, Math.floor(face.x - face.width * margin)),
  x1: Math.min(width, Math.ceil(face.x + face.width * (1 + margin))),
  y0: Math.max(0, Math.floor(face.y - face.height * margin)),
  y1: Math.min(height, Math.ceil(face.y + face.height * (1 + margin)))
})

/**
 * Whether the picture around each of the faces is what it was when they were found: the mean absolute
 * difference over every other pixel of every other row of each face's box and margin. Frames with no face
 * are always looked at again, since a face may appear anywhere.
 */
export const stillAround = (last: Detected, rgb: Buffer, width: number, height: number): boolean =>
  last.faces.length > 0 && last.faces.every((face) => {
    const { x0, x1, y0, y1 } = pixelsOf(face, MARGIN, width, height)
    let sum = 0
    let count = 0
    for (let y = y0; y < y1; y += 2) {
      for (let i = (y * width + x0) * 3, end = (y * width + x1) * 3; i < end; i += 6) {
        sum += Math.abs(rgb[i]! - last.rgb[i]!) + Math.abs(rgb[i + 1]! - last.rgb[i + 1]!) + Math.abs(rgb[i + 2]! - last.rgb[i + 2]!)
        count += 3
      }
    }
    return count > 0 && sum / count < STILL_BELOW
  })

/** Whether most of a found face's box is pure colour (see PURE_SATURATION): what the detector mistakes for faces. */
export const mostlyPureColour = (rgb: Uint8Array, width: number, height: number, face: FaceBox): boolean => {
  const { x0, x1, y0, y1 } = pixelsOf(face, 0, width, height)
  let pure = 0
  let count = 0
  for (let y = y0; y < y1; y++) {
    for (let i = (y * width + x0) * 3, end = (y * width + x1) * 3; i < end; i += 3) {
      const max = Math.max(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!)
      if (max >= PURE_BRIGHTNESS && max - Math.min(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!) > PURE_SATURATION * max) pure++
      count++
    }
  }
  return count === 0 || pure > PURE_SHARE * count
}

const analysisSize = (width: number, height: number) =>
  width >= height
    ? { width: LONG_SIDE, height: evenSize((LONG_SIDE * height) / width) }
    : { width: evenSize((LONG_SIDE * width) / height), height: LONG_SIDE }

interface Detector {
  readonly detect: (rgb: Buffer, width: number, height: number) => Promise<ReadonlyArray<FaceBox>>
  /** The mouths of faces already found (their landmarks: about 10 ms a face): no search for faces. */
  readonly measure: (rgb: Buffer, width: number, height: number, faces: ReadonlyArray<FaceBox>) => Promise<ReadonlyArray<FaceBox>>
  readonly stop: () => Promise<void>
}

/** The worker thread with the model loaded, until the scope ends. */
const detector = Effect.acquireRelease(
  Effect.map(
    startModelThread<ReadonlyArray<FaceBox>, WorkFailed>(
      new URL("./face-api-worker.mjs", import.meta.url),
      { inputSize: INPUT_SIZE, minScore: MIN_SCORE },
      (reason) =>
        new WorkFailed({
          message: `The face detection model could not be loaded (${reason}): reinstall the npm dependencies (@vladmandic/face-api, @tensorflow/tfjs-backend-wasm).`
        })
    ),
    (thread): Detector => {
      // The thread gets its own copy of the frame: the caller keeps the one it has.
      const ask = (rgb: Buffer, question: Readonly<Record<string, unknown>>) => {
        const copy = new ArrayBuffer(rgb.byteLength)
        new Uint8Array(copy).set(rgb)
        return thread.ask({ rgb: copy, ...question }, [copy])
      }
      return {
        detect: (rgb, width, height) => ask(rgb, { width, height }),
        measure: (rgb, width, height, faces) => ask(rgb, { width, height, faces }),
        stop: thread.stop
      }
    }
  ),
  (d) => Effect.promise(d.stop)
)

/**
 * One ffmpeg run, one decode: every frame scored for a scene change (the changes' times printed to
 * `scenes`), and SAMPLES_PER_SECOND frames a second written as raw rgb24 at the detector's size.
 */
const sampler = (search: FaceSearch, size: { width: number; height: number }, scenes: string) => {
  // Scenes are scored on a thumbnail of every frame (a cut changes it as much as the whole); only the
  // sampled frames are scaled to the detector's size. Scaling every frame there took a third more CPU.
  const graph = "[0:v:0]split[a][b];" +
    `[a]scale=${SCENE_SIZE.width}:${SCENE_SIZE.height}:flags=fast_bilinear,select='gt(scene,${SCENE_SCORE})',metadata=print:file=${filterValue(scenes)}[s];` +
    `[b]fps=${SAMPLES_PER_SECOND},scale=${size.width}:${size.height}:flags=area,format=rgb24[f]`
  // Deblocking is skipped: it changes nothing a detector at this size sees, and costs a tenth of the decode.
  // Frames no other frame refers to (most B-frames) are not decoded at all: 45% less decoding of a 1080p
  // x264 source. A cut is still found on its frame: encoders start a new scene with a reference frame.
  const args = [...QUIET, "-skip_loop_filter", "all", "-skip_frame", "noref", "-i", search.input, "-filter_complex", graph, "-map", "[f]", "-f", "rawvideo", "pipe:1", "-map", "[s]", "-f", "null", "-"]
  return framePipe("ffmpeg", args, size.width * size.height * 3)
}

/** The times printed by ffmpeg's metadata filter: one `pts_time:` per frame that passed the select. */
const sceneTimes = (printed: string): ReadonlyArray<number> =>
  [...printed.matchAll(/pts_time:(\S+)/g)].map((m) => Number(m[1])).filter((t) => Number.isFinite(t))

const findFaces = (search: FaceSearch, scenes: string) =>
  Effect.gen(function*() {
    const size = analysisSize(search.width, search.height)
    const scale = search.width / size.width
    // ffmpeg decodes while the model loads (0.4-0.7 s).
    const sampling = yield* sampler(search, size, scenes)
    const faces = yield* detector
    const expected = Math.max(1, Math.round(search.durationSeconds * SAMPLES_PER_SECOND))
    const samples: Array<FaceSample> = []
    let last: Detected | undefined
    for (;;) {
      const rgb = yield* Effect.promise(sampling.frames.next)
      if (rgb === undefined) break
      // As for the text detector: sample i is the frame shown before (i + 0.5) / rate, within a frame of it.
      const seconds = (samples.length + 0.5) / SAMPLES_PER_SECOND
      const kept = last !== undefined && seconds - last.seconds < REDETECT_SECONDS && stillAround(last, rgb, size.width, size.height) ? last : undefined
      // Where the picture shows two faces or more, who speaks is told by their mouths, which move while the
      // picture around them stays: measured on every sample, on the faces kept as on those found. What is
      // mostly pure colour is no face, however the detector scored it.
      const found = kept !== undefined && kept.faces.length < 2 ? kept.faces : yield* Effect.tryPromise({
        try: async () => {
          if (kept !== undefined) return faces.measure(rgb, size.width, size.height, kept.faces)
          const detected = (await faces.detect(rgb, size.width, size.height)).filter((face) => !mostlyPureColour(rgb, size.width, size.height, face))
          return detected.length > 1 ? faces.measure(rgb, size.width, size.height, detected) : detected
        },
        catch: (e) => new WorkFailed({ message: `Face detection failed on a frame: ${e instanceof Error ? e.message : String(e)}` })
      })
      if (kept === undefined) last = { rgb, faces: found, seconds }
      samples.push({
        seconds,
        faces: found.map((f) => ({ ...f, x: f.x * scale, y: f.y * scale, width: f.width * scale, height: f.height * scale }))
      })
      search.onProgress?.(Math.min(1, samples.length / expected))
    }
    const exit = yield* Effect.promise(() => sampling.exited)
    if (exit.error !== undefined) return yield* new WorkFailed({ message: `Could not run ffmpeg to look for faces: ${exit.error.message}` })
    if (exit.code !== 0) return yield* new WorkFailed({ message: `Could not read the video's frames to look for faces: ${lastError(sampling.stderr(), search.input)}` })
    const printed = yield* Effect.promise(() => readFile(scenes, "utf8").catch(() => ""))
    return { samples, sceneCuts: sceneTimes(printed) } satisfies SourceFaces
  }).pipe(
    Effect.scoped,
    Effect.ensuring(Effect.promise(() => rm(scenes, { force: true }))),
    withSpan("FaceApiFinder.find", { attributes: { durationSeconds: search.durationSeconds, samplesPerSecond: SAMPLES_PER_SECOND } })
  )

let searches = 0

export const FaceApiFinderLive = Layer.succeed(
  FaceFinder,
  // The scene list is written beside the input, which sits in the job's own scratch folder.
  FaceFinder.of({ find: (search) => findFaces(search, `${search.input}.scenes-${++searches}.txt`) })
)
