// Reframing a video to another aspect ratio: the crop window's size, and the camera path that moves it
// through the source. In `face` mode the path follows the speaker's face (found offline on sampled
// frames; of several, the one whose mouth moves): it holds still while the face stays inside a dead zone,
// eases to where the face will be when it leaves it, cuts instead of panning at a scene change or a turn
// to another speaker, and sits in the centre in a scene without a face. `split` stacks two windows, each
// following one of two faces far apart (an interview); `center` holds one window in the middle; `fit`
// crops nothing and letterboxes over a blurred copy.
import { Either, Schema } from "effect"
import type { Box } from "./box.ts"
import type { EditProblem } from "./caption-edits.ts"
import { evenSize } from "./even-pixels.ts"
import { splitTopHeight } from "./split-screen.ts"

export const ReframeAspect = Schema.Literal("9:16", "1:1", "4:5", "16:9").annotations({
  description: "The output's shape: `9:16` 1080x1920, `1:1` 1080x1080, `4:5` 1080x1350, `16:9` 1920x1080."
})
export type ReframeAspect = typeof ReframeAspect.Type

export const ReframeMode = Schema.Literal("face", "center", "split", "fit").annotations({
  description:
    "`face`: the window follows the speaker's face (centre where a scene has none); `split`: two faces far apart, one above the other, each followed " +
    "(`face` when the source seldom shows two); `center`: a fixed window in the middle; `fit`: the whole picture, letterboxed over a blurred copy of itself."
})
export type ReframeMode = typeof ReframeMode.Type

export const ReframeSettings = Schema.Struct({
  aspectRatio: ReframeAspect,
  mode: ReframeMode
}).annotations({
  identifier: "Reframe",
  description:
    "Reframe the source to another shape. The window cut out of the source is scaled up to the output's size (a 9:16 output of a 1920x1080 " +
    "source is a 608x1080 window shown at 1080x1920); `fit` keeps the whole picture instead. `face` and `split` look at the source for faces, charged per started minute of source."
})
export type ReframeSettings = typeof ReframeSettings.Type

/** The output's size for each shape: 1080 on the short side, as the platforms ask. */
export const REFRAMED_SIZES: Readonly<Record<ReframeAspect, { readonly width: number; readonly height: number }>> = {
  "9:16": { width: 1080, height: 1920 },
  "1:1": { width: 1080, height: 1080 },
  "4:5": { width: 1080, height: 1350 },
  "16:9": { width: 1920, height: 1080 }
}

/** Whether the mode looks for faces (an analysis of the source, charged). */
export const needsFaces = (mode: ReframeMode): boolean => mode === "face" || mode === "split"

/** A face found on a sampled frame, in source pixels. */
export const FaceBox = Schema.Struct({
  x: Schema.Number,
  y: Schema.Number,
  width: Schema.Number,
  height: Schema.Number,
  score: Schema.Number,
  /** The gap between the inner lips, as a share of the face's height: measured where several faces share the picture. */
  mouth: Schema.optional(Schema.Number)
})
export type FaceBox = typeof FaceBox.Type

export const FaceSample = Schema.Struct({ seconds: Schema.Number, faces: Schema.Array(FaceBox) })
export type FaceSample = typeof FaceSample.Type

/** What the analysis of a source found: faces on frames sampled in order, and where its scenes change. */
export const SourceFaces = Schema.Struct({ samples: Schema.Array(FaceSample), sceneCuts: Schema.Array(Schema.Number) })
export type SourceFaces = typeof SourceFaces.Type

/**
 * A face analysis as the video keeps it: the source it looked at and what it found, so the framing can be
 * planned again in the other face mode without looking again.
 */
export const FaceAnalysis = Schema.Struct({
  source: Schema.Struct({ width: Schema.Int, height: Schema.Int, durationSeconds: Schema.Number }),
  faces: SourceFaces
})
export type FaceAnalysis = typeof FaceAnalysis.Type

const Pixels = Schema.Int.pipe(Schema.nonNegative())

export const CameraKey = Schema.Struct({
  seconds: Schema.Number.pipe(Schema.nonNegative()).annotations({ description: "The time on the source's timeline." }),
  x: Pixels.annotations({ description: "The window's left edge in source pixels." }),
  y: Pixels.annotations({ description: "The window's top edge in source pixels." }),
  cut: Schema.optional(Schema.Boolean).annotations({ description: "The window jumps here (a scene change) instead of easing from the key before." })
}).annotations({
  identifier: "CameraKey",
  description:
    "A point the window passes through: it holds between two keys at one place, starts and stops at rest, and moves on a smooth curve through keys in between (monotone: it never overshoots a key)."
})
export type CameraKey = typeof CameraKey.Type

export const Framing = Schema.Struct({
  mode: ReframeMode.annotations({ description: "The mode drawn: `split` asked of a source that seldom shows two faces is drawn as `face`." }),
  aspectRatio: ReframeAspect,
  sourceWidth: Pixels.annotations({ description: "The source's width (display, rotation applied)." }),
  sourceHeight: Pixels.annotations({ description: "The source's height." }),
  width: Pixels.annotations({ description: "The output's width." }),
  height: Pixels.annotations({ description: "The output's height." }),
  crop: Schema.Struct({
    width: Pixels.annotations({ description: "A window's width in source pixels." }),
    height: Pixels.annotations({ description: "A window's height in source pixels." })
  }).annotations({ description: "Each window's size in source pixels." }),
  paths: Schema.Array(Schema.Array(CameraKey)).annotations({
    description: "One path per window: one for `face` and `center`, two for `split` (the top window's first), none for `fit`."
  })
}).annotations({ identifier: "Framing", description: "Where the reframed video's windows are in the source, over time." })
export type Framing = typeof Framing.Type

interface Size {
  readonly width: number
  readonly height: number
}

const clamp = (n: number, low: number, high: number): number => Math.min(high, Math.max(low, n))

/** The largest window of the output's shape that fits in the source. */
export const cropSize = (source: Size, output: Size): Size =>
  source.width * output.height > output.width * source.height
    ? { width: Math.min(source.width, evenSize((source.height * output.width) / output.height)), height: source.height }
    : { width: source.width, height: Math.min(source.height, evenSize((source.width * output.height) / output.width)) }

/** A split's window (half the output's height): no wider than half the source, so two faces apart fill one each. */
const splitCrop = (source: Size, output: Size): Size => {
  const half = { width: output.width, height: output.height / 2 }
  const widest = cropSize(source, half)
  const width = Math.min(widest.width, evenSize(source.width / 2))
  return { width, height: Math.min(source.height, evenSize((width * half.height) / half.width)) }
}

/** The window holds still while the face stays within this share of the window's size from where it was framed. */
export const DEAD_ZONE = 0.08
/** A move lasts at least this long, and no faster than this many window widths a second. */
const MIN_MOVE_SECONDS = 0.5
const WINDOWS_PER_SECOND = 0.8
/** How much longer a move may take to land on a sample with a face, rather than on no sample. */
const LANDING_WAIT_SECONDS = 1
/** Where the face's middle sits from the window's top, when the window is shorter than the source. */
const FACE_LEVEL = 0.4
/** Two faces further apart than this share of a single window's width cannot share one: a split shows both. */
const SPLIT_APART = 0.6
/** A split is drawn when at least this share of the samples with a face shows two apart. */
const SPLIT_SHARE = 0.3

const centreOf = (face: FaceBox) => ({ x: face.x + face.width / 2, y: face.y + face.height / 2 })
const area = (face: FaceBox) => face.width * face.height
const between = (a: { readonly x: number; readonly y: number }, b: { readonly x: number; readonly y: number }) => Math.hypot(a.x - b.x, a.y - b.y)
/** The least share of a face's box inside the picture for it to count: the detector's false faces on busy patterns overhang the frame. */
const IN_PICTURE = 0.75

/** Whether most of the face's box lies inside the picture: a box that overhangs it by a quarter or more is no face to follow. */
const inPicture = (face: FaceBox, source: Size): boolean => {
  const inside = Math.max(0, Math.min(face.x + face.width, source.width) - Math.max(face.x, 0)) *
    Math.max(0, Math.min(face.y + face.height, source.height) - Math.max(face.y, 0))
  return area(face) > 0 && inside >= area(face) * IN_PICTURE
}

/** How far apart two samples may be for a face on one to confirm a face on the other. */
const CONFIRM_SECONDS = 1.5
/** A face confirms another of at most this many times its height, or of at least its inverse. */
const CONFIRM_SIZE = 1.5

/**
 * The faces to frame: inside the picture, and each seen again (a face of about its size, within its
 * width of it) on a sample next to its own. A person stays from one second to the next; the detector's
 * false faces on a busy picture come and go, and one of them, larger than the real faces, drew the
 * window away. A sample with no neighbour near enough keeps its faces.
 */
const framedFaces = (samples: ReadonlyArray<FaceSample>, source: Size): ReadonlyArray<FaceSample> => {
  const inside: ReadonlyArray<FaceSample> = samples.map((s) => ({ ...s, faces: s.faces.filter((face) => inPicture(face, source)) }))
  return inside.map((sample, i) => {
    const neighbours = [inside[i - 1], inside[i + 1]].filter((n): n is FaceSample => n !== undefined && Math.abs(n.seconds - sample.seconds) <= CONFIRM_SECONDS)
    if (neighbours.length === 0) return sample
    const seenAgain = (face: FaceBox) => {
      const at = centreOf(face)
      const alike = (f: FaceBox) => f.height <= face.height * CONFIRM_SIZE && f.height * CONFIRM_SIZE >= face.height
      return neighbours.some((n) => n.faces.some((f) => alike(f) && between(centreOf(f), at) <= face.width))
    }
    return { ...sample, faces: sample.faces.filter(seenAgain) }
  })
}

/** The window that frames a point: the point in the middle across, at FACE_LEVEL down, kept inside the source. */
const windowOn = (point: { readonly x: number; readonly y: number }, crop: Size, source: Size) => ({
  x: Math.round(clamp(point.x - crop.width / 2, 0, source.width - crop.width)),
  y: Math.round(clamp(point.y - crop.height * FACE_LEVEL, 0, source.height - crop.height))
})

/** Chooses the face a window follows on one sample, given the one it followed before (null: none yet). */
type Chooser = (faces: ReadonlyArray<FaceBox>, previous: { readonly x: number; readonly y: number } | null) => { readonly x: number; readonly y: number } | null

/** How much a face counts: its size, by how sure the detector is of it (patterns that look like a face score low). */
const weight = (face: FaceBox) => area(face) * face.score

/** Seconds either side of a sample over which a face's mouth is watched: a speaker's opens and closes within it. */
const TALK_WINDOW_SECONDS = 2
/** A mouth whose opening varies less than this (its standard deviation, as a share of the face's height) is still. */
const TALKING_MIN = 0.006
/** The speaker's mouth moves at least this many times as much as any other face's. */
const TALKING_LEAD = 2

/** A face with how much its mouth moved around its sample: 0 where mouths were not measured. */
type Seen = FaceBox & { readonly talking?: number }

const deviation = (values: ReadonlyArray<number>): number => {
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  return Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length)
}

/**
 * Each measured face with how much its mouth moved: the spread of the mouth's opening over the samples
 * within TALK_WINDOW_SECONDS, taking on each the face nearest this one (within its width) as the same person.
 */
const withTalking = (samples: ReadonlyArray<FaceSample>): ReadonlyArray<{ readonly seconds: number; readonly faces: ReadonlyArray<Seen> }> =>
  samples.map((sample, i) => ({
    ...sample,
    faces: sample.faces.map((face): Seen => {
      if (face.mouth === undefined) return face
      const at = centreOf(face)
      const mouths: Array<number> = []
      for (let j = i; j >= 0 && samples[j]!.seconds >= sample.seconds - TALK_WINDOW_SECONDS; j--) mouths.push(...sameFace(samples[j]!, at, face.width))
      for (let j = i + 1; j < samples.length && samples[j]!.seconds <= sample.seconds + TALK_WINDOW_SECONDS; j++) mouths.push(...sameFace(samples[j]!, at, face.width))
      return { ...face, talking: mouths.length < 3 ? 0 : deviation(mouths) }
    })
  }))

/** The mouth of the face on `sample` nearest `at` (within `reach`), if measured. */
const sameFace = (sample: FaceSample, at: { readonly x: number; readonly y: number }, reach: number): ReadonlyArray<number> => {
  const distance = (f: FaceBox) => between(centreOf(f), at)
  const [near] = sample.faces.filter((f) => distance(f) <= reach).sort((a, b) => distance(a) - distance(b))
  return near?.mouth === undefined ? [] : [near.mouth]
}

/** The face whose mouth clearly moves more than every other's, where several share the picture. */
const speaking = (faces: ReadonlyArray<Seen>): Seen | null => {
  const [first, second] = [...faces].sort((a, b) => (b.talking ?? 0) - (a.talking ?? 0))
  if (first === undefined || second === undefined) return null
  const [most, next] = [first.talking ?? 0, second.talking ?? 0]
  return most >= TALKING_MIN && most >= TALKING_LEAD * next ? first : null
}

/**
 * The one speaking, where several faces share the picture and one's mouth clearly moves most; otherwise the
 * weightiest face, unless the one followed before is still there and weighs at least half as much: no
 * flicking between two.
 */
const speakerFace: Chooser = (faces, previous) => {
  const speaker = speaking(faces)
  if (speaker !== null) return centreOf(speaker)
  const heaviest = faces.reduce<FaceBox | null>((best, f) => (best === null || weight(f) > weight(best) ? f : best), null)
  if (heaviest === null) return null
  if (previous === null) return centreOf(heaviest)
  return faces
    .filter((f) => weight(f) >= weight(heaviest) / 2)
    .map(centreOf)
    .reduce((best, c) => (between(c, previous) < between(best, previous) ? c : best))
}

/** The middle value of three: one sample's stray detection (a pattern taken for a face) moves nothing. */
const middleOfThree = (a: number, b: number, c: number) => Math.max(Math.min(a, b), Math.min(Math.max(a, b), c))

/** Each sample's target as the median of it and its neighbours with a target (the ends keep their own). */
const steadied = <T extends { readonly window: { readonly x: number; readonly y: number } | null }>(targets: ReadonlyArray<T>): ReadonlyArray<T> => {
  const found = targets.flatMap((t, i) => (t.window === null ? [] : [i]))
  const rank = new Map(found.map((i, k) => [i, k]))
  return targets.map((t, i) => {
    const k = rank.get(i) ?? -1
    const [before, after] = [targets[found[k - 1] ?? -1]?.window, targets[found[k + 1] ?? -1]?.window]
    if (t.window === null || before == null || after == null) return t
    return { ...t, window: { x: middleOfThree(before.x, t.window.x, after.x), y: middleOfThree(before.y, t.window.y, after.y) } }
  })
}

/** The two largest faces in order across: the split's top window follows the left one, the bottom the right one. */
const twoApart = (faces: ReadonlyArray<FaceBox>, single: Size): readonly [FaceBox, FaceBox] | null => {
  const [a, b] = [...faces].sort((p, q) => area(q) - area(p))
  if (a === undefined || b === undefined) return null
  const [left, right] = centreOf(a).x <= centreOf(b).x ? [a, b] : [b, a]
  return centreOf(right).x - centreOf(left).x >= single.width * SPLIT_APART ? [left, right] : null
}

const splitSide = (side: 0 | 1, single: Size): Chooser => (faces, previous) => {
  const pair = twoApart(faces, single)
  if (pair !== null) return centreOf(pair[side])
  // One face (or two close together): this window keeps following whichever is nearest its own, if any is near.
  if (previous === null) return null
  const near = faces.map(centreOf).find((c) => Math.abs(c.x - previous.x) < single.width * SPLIT_APART / 2)
  return near ?? null
}

/** The scenes: spans of the source between its cuts. */
const scenesOf = (sceneCuts: ReadonlyArray<number>, durationSeconds: number) => {
  const cuts = [...sceneCuts].filter((t) => t > 0 && t < durationSeconds).sort((a, b) => a - b)
  const starts = [0, ...cuts]
  return starts.map((start, i) => ({ start, end: cuts[i] ?? durationSeconds }))
}

/**
 * One window's path. Within a scene: framed on the first face found, held while the face stays inside
 * the dead zone, and moved when it leaves: from the sample before it left (the analysis is offline), over
 * a time that grows with the distance, to where the face is when the move ends. A scene starts with a
 * cut to its own framing; one with no face is framed on `fallback`.
 */
const trackPath = (
  faces: SourceFaces,
  durationSeconds: number,
  crop: Size,
  source: Size,
  choose: Chooser,
  fallback: { readonly x: number; readonly y: number }
): ReadonlyArray<CameraKey> => {
  const keys: Array<CameraKey> = []
  const dead = { x: crop.width * DEAD_ZONE, y: crop.height * DEAD_ZONE }
  scenesOf(faces.sceneCuts, durationSeconds).forEach((scene, s) => {
    const samples = faces.samples.filter((sample) => sample.seconds >= scene.start && sample.seconds < scene.end)
    let followed: { x: number; y: number } | null = null
    const targets = steadied(samples.map((sample) => {
      const chosen = choose(sample.faces, followed)
      // Another of several faces, too far from the one followed for it to have moved there: a turn to
      // another speaker, which cuts as a scene change does.
      const turn = chosen !== null && followed !== null && sample.faces.length > 1 && Math.abs(chosen.x - followed.x) > crop.width / 2
      if (chosen !== null) followed = chosen
      return { seconds: sample.seconds, window: chosen === null ? null : windowOn(chosen, crop, source), turn }
    }))
    const first = targets.find((t) => t.window !== null)?.window ?? windowOn(fallback, crop, source)
    keys.push({ seconds: scene.start, ...first, ...(s > 0 ? { cut: true } : {}) })
    let at = first
    let busyUntil = scene.start
    targets.forEach((target, i) => {
      if (target.window === null || target.seconds < busyUntil) return
      if (Math.abs(target.window.x - at.x) <= dead.x && Math.abs(target.window.y - at.y) <= dead.y) return
      if (target.turn) {
        const last = keys.at(-1)!
        keys.push(last.seconds < target.seconds ? { seconds: target.seconds, ...target.window, cut: true } : { ...keys.pop()!, ...target.window })
        at = target.window
        return
      }
      const start = Math.max(busyUntil, targets[i - 1]?.seconds ?? scene.start)
      const distance = Math.max(Math.abs(target.window.x - at.x) / crop.width, Math.abs(target.window.y - at.y) / crop.height)
      const needed = Math.max(MIN_MOVE_SECONDS, distance / WINDOWS_PER_SECOND)
      // The move lands on the first sample with a face once it has had time enough, framing that face
      // (where it is by then): along a steady pan the moves join at the samples and the path runs on.
      const landing = targets.find((t) => t.window !== null && t.seconds >= start + needed && t.seconds <= Math.min(scene.end, start + needed + LANDING_WAIT_SECONDS))
      const end = landing?.seconds ?? Math.min(scene.end, start + needed)
      const aim = landing?.window ?? target.window
      if (start > keys.at(-1)!.seconds) keys.push({ seconds: start, ...at })
      keys.push({ seconds: end, ...aim })
      at = aim
      busyUntil = end
    })
  })
  return keys
}

/**
 * The framing of a source for the settings: the output's size, each window's crop and path. `faces` is
 * the analysis (face and split modes); without it those modes frame the centre.
 */
export const planFraming = (
  settings: ReframeSettings,
  source: Size & { readonly durationSeconds: number },
  faces: SourceFaces | null
): Framing => {
  const output = REFRAMED_SIZES[settings.aspectRatio]
  const single = cropSize(source, output)
  const middle = { x: source.width / 2, y: source.height / 2 }
  const base = { aspectRatio: settings.aspectRatio, sourceWidth: source.width, sourceHeight: source.height, ...output }
  const fixed = (crop: Size, point: { x: number; y: number }): ReadonlyArray<CameraKey> => [{ seconds: 0, ...windowOn(point, crop, source) }]
  if (settings.mode === "fit") return { ...base, mode: "fit", crop: { width: source.width, height: source.height }, paths: [] }
  const found = faces === null ? { samples: [], sceneCuts: [] } : { ...faces, samples: framedFaces(faces.samples, source) }
  if (settings.mode === "split") {
    const withFaces = found.samples.filter((s) => s.faces.length > 0)
    const apart = withFaces.filter((s) => twoApart(s.faces, single) !== null)
    if (withFaces.length > 0 && apart.length >= withFaces.length * SPLIT_SHARE) {
      const crop = splitCrop(source, output)
      return {
        ...base,
        mode: "split",
        crop,
        paths: ([0, 1] as const).map((side) =>
          trackPath(found, source.durationSeconds, crop, source, splitSide(side, single), { x: (source.width * (1 + 2 * side)) / 4, y: middle.y }))
      }
    }
  }
  if (settings.mode === "center") return { ...base, mode: "center", crop: single, paths: [fixed(single, middle)] }
  const watched = { ...found, samples: withTalking(found.samples) }
  return { ...base, mode: "face", crop: single, paths: [trackPath(watched, source.durationSeconds, single, source, speakerFace, middle)] }
}

/**
 * The slope of one coordinate at key `k`, as monotone cubic interpolation (Fritsch-Carlson) takes it:
 * zero at a hold, a turn, a scene's first or last key, and the path's ends, so the window starts and
 * stops at rest and never overshoots a key; between keys along a steady pan, the pan's own speed.
 */
const slopeAt = (path: ReadonlyArray<CameraKey>, k: number, axis: "x" | "y"): number => {
  const [before, at, after] = [path[k - 1], path[k], path[k + 1]]
  if (before === undefined || at === undefined || after === undefined || at.cut === true || after.cut === true) return 0
  const [h0, h1] = [at.seconds - before.seconds, after.seconds - at.seconds]
  if (!(h0 > 0) || !(h1 > 0)) return 0
  const [d0, d1] = [(at[axis] - before[axis]) / h0, (after[axis] - at[axis]) / h1]
  if (d0 * d1 <= 0) return 0
  const [w0, w1] = [2 * h1 + h0, h1 + 2 * h0]
  return (w0 + w1) / (w0 / d0 + w1 / d1)
}

/**
 * Where a path puts its window at a time: at a key, held between two keys at one place, jumping at a
 * cut, and otherwise on the monotone cubic through the keys (eased from rest, steady along a pan).
 */
export const windowAt = (path: ReadonlyArray<CameraKey>, seconds: number): { readonly x: number; readonly y: number } => {
  // The last key at or before the time, found by halving (an export asks once a frame of a long path).
  let [i, high] = [0, path.length - 1]
  while (i < high) {
    const mid = Math.ceil((i + high) / 2)
    if (path[mid]!.seconds <= seconds) i = mid
    else high = mid - 1
  }
  const from = path[i]
  if (from === undefined) return { x: 0, y: 0 }
  const to = path[i + 1]
  if (to === undefined || to.cut === true || seconds <= from.seconds) return { x: from.x, y: from.y }
  const h = to.seconds - from.seconds
  const u = (seconds - from.seconds) / h
  const hermite = (axis: "x" | "y") =>
    (2 * u ** 3 - 3 * u ** 2 + 1) * from[axis] + (u ** 3 - 2 * u ** 2 + u) * h * slopeAt(path, i, axis) +
    (-2 * u ** 3 + 3 * u ** 2) * to[axis] + (u ** 3 - u ** 2) * h * slopeAt(path, i + 1, axis)
  return { x: Math.round(hermite("x")), y: Math.round(hermite("y")) }
}

/** Where the output draws each window, scaled up: all of it for one, a split's top window above its bottom one; none for `fit`. */
export const windowPlaces = (framing: Pick<Framing, "mode" | "width" | "height">): ReadonlyArray<Box> => {
  const { height, width } = framing
  if (framing.mode === "fit") return []
  if (framing.mode !== "split") return [{ x: 0, y: 0, width, height }]
  const top = splitTopHeight(height)
  return [{ x: 0, y: 0, width, height: top }, { x: 0, y: top, width, height: height - top }]
}

/** Keys one window's path may have: an hour of a window moving every second is 3,600. */
export const MAX_CAMERA_KEYS = 20_000

/** A key placed by a person replaces any key within this of its time (a frame at 60 fps). */
const SAME_MOMENT_SECONDS = 1 / 60

/** Where a window may sit: wholly inside the source. */
const windowRange = (framing: Pick<Framing, "sourceWidth" | "sourceHeight" | "crop">) => ({
  x: Math.max(0, framing.sourceWidth - framing.crop.width),
  y: Math.max(0, framing.sourceHeight - framing.crop.height)
})

/**
 * The path with the window placed at `x, y` at a time (a person dragged it there): the path passes through
 * that key, which replaces a key at the same moment (keeping its cut) and is kept inside the source.
 */
export const pinKey = (
  framing: Pick<Framing, "sourceWidth" | "sourceHeight" | "crop">,
  path: ReadonlyArray<CameraKey>,
  key: { readonly seconds: number; readonly x: number; readonly y: number }
): ReadonlyArray<CameraKey> => {
  const range = windowRange(framing)
  const seconds = Math.max(0, Math.round(key.seconds * 1000) / 1000)
  const replaced = path.find((k) => Math.abs(k.seconds - seconds) <= SAME_MOMENT_SECONDS)
  const pinned: CameraKey = {
    seconds: replaced?.seconds ?? seconds,
    x: clamp(Math.round(key.x), 0, range.x),
    y: clamp(Math.round(key.y), 0, range.y),
    ...(replaced?.cut === true ? { cut: true } : {})
  }
  return [...path.filter((k) => k !== replaced), pinned].sort((a, b) => a.seconds - b.seconds)
}

/**
 * Paths a person sent in place of the framing's (keys moved in the editor): one per window, each with a
 * first key, keys in time order within the source, every window inside the picture. The rest of the
 * framing (mode, sizes) is the planner's and stays.
 */
export const checkCameraPaths = (
  framing: Framing,
  paths: ReadonlyArray<ReadonlyArray<CameraKey>>,
  durationSeconds: number
): Either.Either<Framing, EditProblem> => {
  if (paths.length !== framing.paths.length) {
    return Either.left({ field: "framing.paths", message: `The framing has ${framing.paths.length} window paths; send exactly that many.` })
  }
  const range = windowRange(framing)
  for (const [w, path] of paths.entries()) {
    if (path.length === 0) return Either.left({ field: `framing.paths.${w}`, message: "A window's path needs at least one key." })
    if (path.length > MAX_CAMERA_KEYS) return Either.left({ field: `framing.paths.${w}`, message: `A window's path has at most ${MAX_CAMERA_KEYS} keys.` })
    for (const [k, key] of path.entries()) {
      const field = `framing.paths.${w}.${k}`
      if (key.seconds > durationSeconds) return Either.left({ field: `${field}.seconds`, message: `seconds is past the end of the source (${durationSeconds.toFixed(2)} s).` })
      if (k > 0 && key.seconds <= path[k - 1]!.seconds) return Either.left({ field: `${field}.seconds`, message: "keys must be in time order, each after the one before." })
      if (key.x > range.x) return Either.left({ field: `${field}.x`, message: `x must be 0 to ${range.x}: the window is ${framing.crop.width} px wide in a ${framing.sourceWidth} px source.` })
      if (key.y > range.y) return Either.left({ field: `${field}.y`, message: `y must be 0 to ${range.y}: the window is ${framing.crop.height} px high in a ${framing.sourceHeight} px source.` })
    }
  }
  return Either.right({ ...framing, paths })
}

/**
 * Whether `settings` asked of a video reframed as `asked` (framed `before`) are planned afresh from the
 * faces its analysis found, rather than re-made from the paths it has: a face mode it is not framed in.
 */
export const replansFromFaces = (settings: ReframeSettings, asked: ReframeSettings | null, before: Framing | null): boolean =>
  needsFaces(settings.mode) && (before === null || asked?.mode !== settings.mode || !needsFaces(before.mode))

/**
 * Whether a video's framing still waits for its faces: `face` or `split` was asked (after the video was
 * made, of a source never looked at for faces), and the windows stand in the middle until the next render
 * looks for the faces and plans them.
 */
export const awaitsFaces = (asked: ReframeSettings | null, framing: Framing | null): asked is ReframeSettings =>
  asked !== null && needsFaces(asked.mode) && (framing === null || !needsFaces(framing.mode))

/**
 * The framing for another shape or mode asked after the video was made, without looking at the source
 * again: `center` and `fit` are planned afresh; `face` and `split` in the mode the video has keep the
 * paths the analysis made (and any key a person placed), each window re-made around the same points, so
 * it still frames the face it followed. Another face mode (or `face` or `split` again after `center` or
 * `fit`) is planned afresh from the `analysis` the video kept; without one (the video was never looked
 * at for faces) the window stands in the middle, which `awaitsFaces` tells, until the next render looks.
 * `asked` and `before` are the settings and framing now (null: not reframed); `source` is the source's size.
 */
export const reshapeFraming = (
  settings: ReframeSettings,
  asked: ReframeSettings | null,
  before: Framing | null,
  source: Size,
  analysis: FaceAnalysis | null
): Framing => {
  if (!needsFaces(settings.mode)) return planFraming(settings, { ...source, durationSeconds: 0 }, null)
  if (before === null || replansFromFaces(settings, asked, before)) {
    return analysis !== null
      ? planFraming(settings, analysis.source, analysis.faces)
      : planFraming({ ...settings, mode: "center" }, { ...source, durationSeconds: 0 }, null)
  }
  const output = REFRAMED_SIZES[settings.aspectRatio]
  const crop = before.mode === "split" ? splitCrop(source, output) : cropSize(source, output)
  // The point a window framed: across its middle, FACE_LEVEL down (where planning put the face).
  const reframedKey = (key: CameraKey): CameraKey => ({
    ...key,
    ...windowOn({ x: key.x + before.crop.width / 2, y: key.y + before.crop.height * FACE_LEVEL }, crop, source)
  })
  return {
    mode: before.mode,
    aspectRatio: settings.aspectRatio,
    sourceWidth: source.width,
    sourceHeight: source.height,
    ...output,
    crop,
    paths: before.paths.map((path) => path.map(reframedKey))
  }
}
