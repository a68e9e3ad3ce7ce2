// DBNet post-processing for the PP-OCR text detection model, without OpenCV: the frame's pixels in the
// layout the model expects, and the probability map it returns turned into scored boxes in video pixels.
import type { DetectedBox } from "../../domain/text-regions.ts"
import { evenSize } from "../../domain/even-pixels.ts"

/** How a video frame is fitted into the model's input: scaled keeping its aspect, then padded right and bottom. */
export interface ModelFrame {
  /** The frame scaled (even sides, as ffmpeg's yuv420 scaling wants). */
  readonly scaledWidth: number
  readonly scaledHeight: number
  /** The model's input: the scaled frame padded to multiples of 32, as DBNet's downsampling needs. */
  readonly width: number
  readonly height: number
}

const roundUp = (value: number, step: number) => Math.ceil(value / step) * step

/** Fits a width x height video into a model input whose longer side is at most `maxSide` (never upscaled). */
export const modelFrame = (width: number, height: number, maxSide: number): ModelFrame => {
  const scale = Math.min(1, maxSide / Math.max(width, height))
  const scaledWidth = evenSize(width * scale)
  const scaledHeight = evenSize(height * scale)
  return { scaledWidth, scaledHeight, width: roundUp(scaledWidth, 32), height: roundUp(scaledHeight, 32) }
}

// ImageNet statistics, as PP-OCR's NormalizeImage applies them.
const MEAN = [0.485, 0.456, 0.406] as const
const STD = [0.229, 0.224, 0.225] as const

/** Packed rgb24 pixels as the model's NCHW float32 input: each channel scaled to 0..1, then standardised. */
export const normalise = (rgb: Uint8Array, pixels: number): Float32Array<ArrayBuffer> => {
  const planes = new Float32Array(3 * pixels)
  for (let c = 0; c < 3; c++) {
    // A lookup table: 256 values per channel instead of a division per pixel.
    const table = new Float32Array(256)
    for (let v = 0; v < 256; v++) table[v] = (v / 255 - MEAN[c]!) / STD[c]!
    const offset = c * pixels
    for (let i = 0; i < pixels; i++) planes[offset + i] = table[rgb[i * 3 + c]!]!
  }
  return planes
}

export interface BoxOptions {
  /** A pixel is text when its probability is above this (PP-OCR: 0.3). */
  readonly threshold: number
  /** Components whose box is narrower or shorter than this, in model pixels, are noise (PP-OCR: 3). */
  readonly minSide: number
  /** DBNet's unclip ratio: the box grows on each side by area * ratio / perimeter (PP-OCR: 1.5). */
  readonly unclipRatio: number
}

export const DB_DEFAULTS: BoxOptions = { threshold: 0.3, minSide: 3, unclipRatio: 1.5 }

/**
 * The text boxes of a DBNet probability map (`width` x `height`, row-major), in model pixels: each
 * 4-connected component above the threshold gives its bounding box, scored by the mean probability of
 * its pixels, then grown back by the unclip distance (the model is trained to mark a shrunk kernel of
 * each text line). Boxes are not clamped.
 */
export const textBoxes = (
  probability: Float32Array,
  width: number,
  height: number,
  options: BoxOptions = DB_DEFAULTS
): Array<DetectedBox> => {
  const pixels = width * height
  const seen = new Uint8Array(pixels)
  const stack = new Int32Array(pixels)
  const boxes: Array<DetectedBox> = []
  let top = 0
  const visit = (q: number) => {
    if (seen[q] === 0 && probability[q]! > options.threshold) {
      seen[q] = 1
      stack[top++] = q
    }
  }
  for (let start = 0; start < pixels; start++) {
    if (seen[start] === 1 || probability[start]! <= options.threshold) continue
    seen[start] = 1
    stack[0] = start
    top = 1
    let left = width
    let right = 0
    let upper = height
    let lower = 0
    let sum = 0
    let count = 0
    while (top > 0) {
      const p = stack[--top]!
      const x = p % width
      const y = (p - x) / width
      sum += probability[p]!
      count++
      if (x < left) left = x
      if (x > right) right = x
      if (y < upper) upper = y
      if (y > lower) lower = y
      if (x > 0) visit(p - 1)
      if (x < width - 1) visit(p + 1)
      if (y > 0) visit(p - width)
      if (y < height - 1) visit(p + width)
    }
    const boxWidth = right - left + 1
    const boxHeight = lower - upper + 1
    if (boxWidth < options.minSide || boxHeight < options.minSide) continue
    const grow = (boxWidth * boxHeight * options.unclipRatio) / (2 * (boxWidth + boxHeight))
    boxes.push({
      x: left - grow,
      y: upper - grow,
      width: boxWidth + 2 * grow,
      height: boxHeight + 2 * grow,
      score: sum / count
    })
  }
  return boxes
}

/**
 * A box in model pixels as whole video pixels: scaled by the video's size over the scaled frame's,
 * rounded outwards and clamped to the frame. Undefined when nothing of it is inside the frame.
 */
export const toVideoBox = (
  box: DetectedBox,
  frame: ModelFrame,
  videoWidth: number,
  videoHeight: number
): DetectedBox | undefined => {
  const sx = videoWidth / frame.scaledWidth
  const sy = videoHeight / frame.scaledHeight
  const left = Math.max(0, Math.floor(box.x * sx))
  const top = Math.max(0, Math.floor(box.y * sy))
  const right = Math.min(videoWidth, Math.ceil((box.x + box.width) * sx))
  const bottom = Math.min(videoHeight, Math.ceil((box.y + box.height) * sy))
  if (right <= left || bottom <= top) return undefined
  return { x: left, y: top, width: right - left, height: bottom - top, score: box.score }
}
