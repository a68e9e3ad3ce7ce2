// Burned-in text found in a video: boxes detected on sampled frames, tracked over time into regions
// to wipe: watermarks and logos (static, present the whole video) and captions (present for a span).
import { Schema } from "effect"
import { evenAbove, evenBelow } from "./even-pixels.ts"

/** A box of text found on one sampled frame, in the video's pixels. */
export interface DetectedBox {
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
  /** The detector's confidence, 0..1. */
  readonly score: number
}

/** One sampled frame: when it is in the video, and the text boxes found on it. */
export interface FrameSample {
  readonly atSeconds: number
  readonly boxes: ReadonlyArray<DetectedBox>
}

export const RemovalTarget = Schema.Literal("all", "captions", "watermarks").annotations({
  description: "What to wipe: `all` (default), `captions` (text that comes and goes), or `watermarks` (text and logos present the whole video)."
})
export type RemovalTarget = typeof RemovalTarget.Type

export const PixelBox = Schema.Struct({
  x: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Left edge, in the video's pixels." }),
  y: Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Top edge, in the video's pixels." }),
  width: Schema.Int.pipe(Schema.positive()).annotations({ description: "Width in pixels." }),
  height: Schema.Int.pipe(Schema.positive()).annotations({ description: "Height in pixels." })
}).annotations({ identifier: "PixelBox", description: "A rectangle of the video, in pixels from its top-left corner." })
export type PixelBox = typeof PixelBox.Type

export const TextRegion = Schema.Struct({
  kind: Schema.Literal("caption", "watermark").annotations({
    description: "`watermark`: present the whole video (a logo or handle); `caption`: present for a span of time."
  }),
  box: PixelBox,
  startSeconds: Schema.Number.annotations({ description: "When the region appears." }),
  endSeconds: Schema.Number.annotations({ description: "When it is gone." }),
  score: Schema.Number.annotations({ description: "The detector's mean confidence over the frames it was seen on, 0..1." })
}).annotations({ identifier: "TextRegion", description: "Burned-in text found in the video, wiped while present." })
export type TextRegion = typeof TextRegion.Type

/** How boxes found on sampled frames become regions: see `trackRegions`. */
export interface TrackOptions {
  /** How often the detector sampled the video; a sample stands for the moment `atSeconds`. */
  readonly samplesPerSecond: number
  readonly durationSeconds: number
  /** The video's size (display orientation), which the boxes are in. */
  readonly width: number
  readonly height: number
  readonly target: RemovalTarget
  /** Only text inside this rectangle is kept (a box crossing its edge is cut to it); null: the whole frame. */
  readonly region: PixelBox | null
  /** Pixels added on each side of the text; default a quarter of the text's line height, at least 8. */
  readonly padding?: number
}

/** Edges as coordinates, right and bottom exclusive. */
interface Rect {
  readonly x1: number
  readonly y1: number
  readonly x2: number
  readonly y2: number
}

/** One box on one sample. */
interface Sighting {
  readonly sample: number
  readonly rect: Rect
  readonly score: number
}

/** A region before its kind is filtered and its neighbours merged; `sightings` weighs its score in a merge. */
interface Found {
  readonly region: TextRegion
  readonly sightings: number
}

/** A watermark is seen on at least this share of the samples... */
const WATERMARK_COVERAGE = 0.9
/** ...or on all but the first and last, when there are at least this many (text fading in and out). */
const EDGE_RULE_MIN_SAMPLES = 5
/** ...and keeps still: this share of its sightings overlap its median box by at least STILL_IOU. */
const STILL_SHARE = 0.9
const STILL_IOU = 0.85
/** A one-sample caption smaller than this share of the frame, scored below NOISE_SCORE, is taken for noise. */
const NOISE_AREA_SHARE = 0.005
const NOISE_SCORE = 0.95
const MIN_PADDING = 8
const PADDING_SHARE_OF_LINE = 0.25
/** delogo fills a box from the pixels around it, so a box keeps this far from the frame's edges. */
const EDGE_MARGIN = 2

const area = (r: Rect): number => Math.max(0, r.x2 - r.x1) * Math.max(0, r.y2 - r.y1)
const intersect = (a: Rect, b: Rect): Rect => ({
  x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1), x2: Math.min(a.x2, b.x2), y2: Math.min(a.y2, b.y2)
})
const union = (a: Rect, b: Rect): Rect => ({
  x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1), x2: Math.max(a.x2, b.x2), y2: Math.max(a.y2, b.y2)
})
const iou = (a: Rect, b: Rect): number => {
  const common = area(intersect(a, b))
  return common === 0 ? 0 : common / (area(a) + area(b) - common)
}
const rectOf = (b: { x: number; y: number; width: number; height: number }): Rect => ({
  x1: b.x, y1: b.y, x2: b.x + b.width, y2: b.y + b.height
})
const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

/** The same text on two samples: the boxes mostly coincide, or one mostly holds the other (a word of a line). */
const sameText = (a: Rect, b: Rect): boolean => {
  const common = area(intersect(a, b))
  return iou(a, b) >= 0.5 || common >= 0.8 * Math.min(area(a), area(b))
}

/**
 * The same caption line on two consecutive samples although its words changed: the boxes share most of
 * their height and some of their width (a caption's box narrows and widens with its words).
 */
const sameBand = (a: Rect, b: Rect): boolean => {
  const common = intersect(a, b)
  return common.x2 > common.x1 && common.y2 - common.y1 >= 0.5 * Math.min(a.y2 - a.y1, b.y2 - b.y1)
}

/** Groups of sightings joined, directly or through others, by `linked` (union-find). */
const groups = (
  sightings: ReadonlyArray<Sighting>,
  linked: (a: Sighting, b: Sighting) => boolean
): Array<Array<Sighting>> => {
  const parent = sightings.map((_, i) => i)
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!
    return i
  }
  sightings.forEach((a, i) => {
    for (let j = i + 1; j < sightings.length; j++) if (linked(a, sightings[j]!)) parent[root(j)] = root(i)
  })
  const byRoot = new Map<number, Array<Sighting>>()
  sightings.forEach((s, i) => {
    const group = byRoot.get(root(i))
    if (group === undefined) byRoot.set(root(i), [s])
    else group.push(s)
  })
  return [...byRoot.values()]
}

/** Text on (nearly) every sample, staying in place: a logo, a handle, a channel's name. */
const isWatermark = (track: ReadonlyArray<Sighting>, samples: number): boolean => {
  const seen = new Set(track.map((s) => s.sample))
  const everywhere =
    seen.size >= WATERMARK_COVERAGE * samples ||
    (samples >= EDGE_RULE_MIN_SAMPLES && Array.from({ length: samples - 2 }, (_, i) => i + 1).every((i) => seen.has(i)))
  if (!everywhere) return false
  const middle: Rect = {
    x1: median(track.map((s) => s.rect.x1)), y1: median(track.map((s) => s.rect.y1)),
    x2: median(track.map((s) => s.rect.x2)), y2: median(track.map((s) => s.rect.y2))
  }
  return track.filter((s) => iou(s.rect, middle) >= STILL_IOU).length >= STILL_SHARE * track.length
}

const roundTime = (seconds: number): number => Math.round(seconds * 1000) / 1000

/**
 * The regions to wipe, from the text boxes found on sampled frames.
 *
 * - Boxes are cut to the frame and to `region`; padding may then reach a little past `region`, so the
 *   fill starts from clean pixels rather than from the text's edge.
 * - Watermarks: boxes of the same text found in place (wherever in time) that cover at least 90% of the
 *   samples, or all but the first and last. They span the whole video, with the union of their boxes.
 * - Captions: the remaining boxes, linked from one sample to the next when they show the same text or
 *   the same line with other words (captions replacing each other in one place become one region over
 *   the union of their boxes, which wipes the same pixels). A caption spans from the sample before it
 *   was first seen to the sample after it was last seen: it appeared somewhere in between, and wiping a
 *   little clean background is less visible than a flash of text.
 * - A caption seen on a single sample, smaller than 0.5% of the frame and scored below 0.95, is taken
 *   for a false detection and dropped.
 * - Boxes are padded, kept 2 px inside the frame (the fill reads the pixels around its box), with even
 *   coordinates and sizes (4:2:0 chroma); then only the `target` kind is kept, and regions of one kind
 *   whose boxes and spans overlap are merged.
 */
export const trackRegions = (samples: ReadonlyArray<FrameSample>, options: TrackOptions): ReadonlyArray<TextRegion> => {
  const { width, height, durationSeconds } = options
  const interval = 1 / options.samplesPerSecond
  const ordered = [...samples].sort((a, b) => a.atSeconds - b.atSeconds)
  const frame: Rect = { x1: 0, y1: 0, x2: width, y2: height }
  const roi = options.region === null ? frame : intersect(frame, rectOf(options.region))
  const sightings = ordered.flatMap((sample, index) =>
    sample.boxes
      .map((box) => ({ sample: index, rect: intersect(rectOf(box), roi), score: box.score }))
      .filter((s) => area(s.rect) > 0)
  )

  const found: Array<Found> = []
  const toRegion = (kind: TextRegion["kind"], track: ReadonlyArray<Sighting>, startSeconds: number, endSeconds: number) => {
    const box = padded(
      track.map((s) => s.rect).reduce(union),
      options.padding ?? Math.max(MIN_PADDING, Math.round(PADDING_SHARE_OF_LINE * median(track.map((s) => s.rect.y2 - s.rect.y1)))),
      width,
      height
    )
    if (box === null) return
    const score = track.reduce((sum, s) => sum + s.score, 0) / track.length
    found.push({ region: { kind, box, startSeconds: roundTime(startSeconds), endSeconds: roundTime(endSeconds), score }, sightings: track.length })
  }

  const captionSightings: Array<Sighting> = []
  for (const track of groups(sightings, (a, b) => sameText(a.rect, b.rect))) {
    if (isWatermark(track, ordered.length)) toRegion("watermark", track, 0, durationSeconds)
    else captionSightings.push(...track)
  }
  const consecutive = (a: Sighting, b: Sighting) =>
    Math.abs(a.sample - b.sample) === 1 && (sameText(a.rect, b.rect) || sameBand(a.rect, b.rect))
  for (const track of groups(captionSightings, consecutive)) {
    const seen = track.map((s) => s.sample)
    const first = Math.min(...seen)
    const last = Math.max(...seen)
    const noise =
      first === last &&
      area(track.map((s) => s.rect).reduce(union)) < NOISE_AREA_SHARE * width * height &&
      track.every((s) => s.score < NOISE_SCORE)
    if (noise) continue
    const start = Math.max(0, ordered[first]!.atSeconds - interval)
    const end = Math.min(durationSeconds, ordered[last]!.atSeconds + interval)
    toRegion("caption", track, start, Math.max(start, end))
  }

  const wanted = found.filter(({ region }) =>
    options.target === "all" || (options.target === "captions") === (region.kind === "caption")
  )
  return mergeOverlapping(wanted)
    .map((f) => f.region)
    .sort((a, b) => a.startSeconds - b.startSeconds || a.box.y - b.box.y || a.box.x - b.box.x)
}

/** The text's box grown by `padding`, kept EDGE_MARGIN inside the frame, on even pixels; null when nothing is left. */
const padded = (rect: Rect, padding: number, width: number, height: number): PixelBox | null => {
  const low = (v: number) => Math.max(EDGE_MARGIN, evenBelow(v - padding))
  const high = (v: number, side: number) => Math.min(evenBelow(side - EDGE_MARGIN), evenAbove(v + padding))
  const x = low(rect.x1)
  const y = low(rect.y1)
  const x2 = high(rect.x2, width)
  const y2 = high(rect.y2, height)
  return x2 > x && y2 > y ? { x, y, width: x2 - x, height: y2 - y } : null
}

/** A box as delogo can wipe it: kept EDGE_MARGIN inside the frame, on even pixels (4:2:0); null when nothing is left. */
export const wipeableBox = (box: PixelBox, width: number, height: number): PixelBox | null => padded(rectOf(box), 0, width, height)

/** Regions of one kind whose boxes and spans overlap, merged into one until none do. */
const mergeOverlapping = (regions: ReadonlyArray<Found>): Array<Found> => {
  const out = [...regions]
  const overlapping = (a: TextRegion, b: TextRegion) =>
    a.kind === b.kind &&
    area(intersect(rectOf(a.box), rectOf(b.box))) > 0 &&
    a.startSeconds < b.endSeconds &&
    b.startSeconds < a.endSeconds
  const pair = (): [number, number] | undefined => {
    for (let i = 0; i < out.length; i++) {
      for (let j = i + 1; j < out.length; j++) if (overlapping(out[i]!.region, out[j]!.region)) return [i, j]
    }
    return undefined
  }
  // A grown region may overlap one it was compared with before, so look again from the start.
  for (let found = pair(); found !== undefined; found = pair()) {
    const [i, j] = found
    const a = out[i]!
    const b = out[j]!
    const box = union(rectOf(a.region.box), rectOf(b.region.box))
    const sightings = a.sightings + b.sightings
    out[i] = {
      region: {
        kind: a.region.kind,
        box: { x: box.x1, y: box.y1, width: box.x2 - box.x1, height: box.y2 - box.y1 },
        startSeconds: Math.min(a.region.startSeconds, b.region.startSeconds),
        endSeconds: Math.max(a.region.endSeconds, b.region.endSeconds),
        score: (a.region.score * a.sightings + b.region.score * b.sightings) / sightings
      },
      sightings
    }
    out.splice(j, 1)
  }
  return out
}
