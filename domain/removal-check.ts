// The check after a caption removal's wipe: what it measures (the share of frames where text is found
// over a wiped region while it was present), and where it looks: only where text was wiped. Each wiped
// box, widened by a margin, is cut out of the sampled frame and the strips are stacked one under another,
// so the detector's work is the wiped area's, not the whole picture's (a caption band and a watermark are
// a tenth of a 9:16 frame). Text found elsewhere would not count anyway.
import type { DetectedBox, FrameSample, PixelBox, TextRegion } from "./text-regions.ts"
import { evenBelow, evenSize } from "./even-pixels.ts"

/** Around each wiped box, so that text reaching past its edge is seen whole. */
export const STRIP_MARGIN = 24

/** One strip: the picture's `box`, placed `top` pixels down the stack (video pixels). */
export interface CheckStrip {
  readonly box: PixelBox
  readonly top: number
}

/** The stack: its strips, and its size in video pixels (as wide as the widest strip). */
export interface CheckStrips {
  readonly strips: ReadonlyArray<CheckStrip>
  readonly width: number
  readonly height: number
}

const overlapping = (a: PixelBox, b: PixelBox): boolean =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

/** The share of samples on which text is still found where a region was wiped while it was present. */
export const textRemainingShare = (samples: ReadonlyArray<FrameSample>, regions: ReadonlyArray<TextRegion>): number => {
  if (samples.length === 0) return 0
  const remaining = samples.filter((sample) =>
    sample.boxes.some((box) =>
      regions.some((r) => sample.atSeconds >= r.startSeconds && sample.atSeconds <= r.endSeconds && overlapping(box, r.box))
    )
  )
  return remaining.length / samples.length
}

const union = (a: PixelBox, b: PixelBox): PixelBox => {
  const x = Math.min(a.x, b.x)
  const y = Math.min(a.y, b.y)
  return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y }
}

/** A box widened by the margin, inside the picture, on even pixels (4:2:0 chroma). */
const widened = (box: PixelBox, width: number, height: number): PixelBox => {
  const x = evenBelow(Math.max(0, box.x - STRIP_MARGIN))
  const y = evenBelow(Math.max(0, box.y - STRIP_MARGIN))
  return {
    x,
    y,
    width: evenBelow(Math.min(width, box.x + box.width + STRIP_MARGIN) - x),
    height: evenBelow(Math.min(height, box.y + box.height + STRIP_MARGIN) - y)
  }
}

/**
 * The strips for the wiped boxes of a `width`x`height` picture: boxes that overlap once widened become
 * one (a caption shown at the same place all video long is one strip). Null when the stack would hold
 * half the picture or more: the whole picture is then about as cheap to look at.
 */
export const checkStrips = (boxes: ReadonlyArray<PixelBox>, width: number, height: number): CheckStrips | null => {
  const merged: Array<PixelBox> = []
  for (const box of boxes.map((b) => widened(b, width, height)).filter((b) => b.width > 0 && b.height > 0)) {
    let joined = box
    for (let i = merged.length - 1; i >= 0; i--) {
      if (!overlapping(merged[i]!, joined)) continue
      joined = union(merged[i]!, joined)
      merged.splice(i, 1)
      // The grown box may now reach strips already passed over.
      i = merged.length
    }
    merged.push(joined)
  }
  if (merged.length === 0) return null
  merged.sort((a, b) => a.y - b.y || a.x - b.x)
  const stackWidth = Math.max(...merged.map((b) => b.width))
  let top = 0
  const strips = merged.map((box) => {
    const strip = { box, top }
    top += box.height
    return strip
  })
  return 2 * stackWidth * top >= width * height ? null : { strips, width: stackWidth, height: top }
}

/** The stack's size scaled by `scale` (as the whole picture is for detection), on even pixels. */
export const sampledSize = (stack: CheckStrips, scale: number): { readonly width: number; readonly height: number } => ({
  width: evenSize(stack.width * scale),
  height: evenSize(stack.height * scale)
})

/**
 * A box found on the stack scaled to `sampled`, in the picture's pixels: in the strip its middle falls in,
 * cut to that strip. Undefined when nothing of it is inside a strip's picture (the padding right of a
 * narrower strip).
 */
export const fromStrips = (
  stack: CheckStrips,
  sampled: { readonly width: number; readonly height: number },
  found: DetectedBox
): DetectedBox | undefined => {
  // In stack pixels: its edges, then cut to its strip.
  const [sx, sy] = [sampled.width / stack.width, sampled.height / stack.height]
  const [x, y, right, bottom] = [found.x / sx, found.y / sy, (found.x + found.width) / sx, (found.y + found.height) / sy]
  const middle = (y + bottom) / 2
  const strip = stack.strips.find((s) => middle >= s.top && middle < s.top + s.box.height)
  if (strip === undefined) return undefined
  const [left, cutRight] = [Math.max(0, x), Math.min(strip.box.width, right)]
  const [top, cutBottom] = [Math.max(strip.top, y), Math.min(strip.top + strip.box.height, bottom)]
  if (cutRight <= left || cutBottom <= top) return undefined
  return { x: strip.box.x + left, y: strip.box.y + top - strip.top, width: cutRight - left, height: cutBottom - top, score: found.score }
}
