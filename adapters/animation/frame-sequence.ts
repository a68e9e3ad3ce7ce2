// An animation as one APNG stream, written while the renderer encodes it. Chat and quiz frames repeat a
// lot (a settled screen, the typing dots' cycle), so a run of equal frames is one APNG frame held for
// its length, and each APNG frame after the first carries only the rectangle that changed since the
// one before (the countdown's ring, an answer's row). A change seen before (the dots' cycle) re-uses its
// compressed rectangle without drawing. Compression runs on the libuv threadpool while the next picture
// is drawn; pictures go to the sink in order, as fast as it takes them.
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import { promisify } from "node:util"
import { deflate, deflateSync } from "node:zlib"
import type { Box } from "../../domain/box.ts"
import type { ByteSink } from "../../domain/ports/animated-frames.ts"
import { PNG_SIGNATURE, pngChunk } from "../imagery/png-chunks.ts"

const deflateAsync = promisify(deflate)

/** Pictures being compressed at once: each holds its rectangle's rows until it is written. */
const IN_FLIGHT = 3

/**
 * Delays are counted in 1/10000 s and each frame's end is rounded from the exact frame boundary, so
 * rounding never accumulates (ffmpeg keeps APNG timestamps in 1/100000 s, so these are exact there).
 */
const DELAY_DEN = 10_000
/**
 * Changes kept, compressed, for steps seen again (the dots' cycle), counted by their rectangles' RGBA
 * bytes (known before compressing): the oldest go past this. Compressed, they take a tenth or less.
 */
const KEPT_CHANGE_BYTES = 256 * 2 ** 20
/** The longest delay a frame holds (a 16-bit numerator); a longer run is held by further empty frames. */
const MAX_DELAY = 65_535

export interface FrameSequenceRequest {
  readonly width: number
  readonly height: number
  readonly frames: number
  readonly frameRate: number
  /** What frame `index` shows, as a key: frames with equal keys show the same picture. */
  readonly keyAt: (frame: number) => string
  /** Draws the picture of `key` on a canvas cleared to transparent. */
  readonly draw: (ctx: SKRSContext2D, key: string) => void
  /** Stops drawing (the promise rejects) once aborted. */
  readonly signal?: AbortSignal
  /** How many RGBA bytes of changes are kept (compressed) for steps seen again; 256 MiB unless given. */
  readonly keptChangeBytes?: number
}

export interface FrameSequence {
  /** How many pictures were drawn. */
  readonly pictures: number
  /** Whether the sink took the whole stream (false: its reader stopped, and drawing stopped with it). */
  readonly complete: boolean
}

interface Run {
  readonly key: string
  /** Its length in 1/10000 s. */
  readonly delay: number
}

const runsOf = (request: FrameSequenceRequest): ReadonlyArray<Run> => {
  const runs: Array<{ key: string; end: number }> = []
  for (let frame = 0; frame < request.frames; frame++) {
    const key = request.keyAt(frame)
    const last = runs.at(-1)
    if (last?.key === key) last.end = frame + 1
    else runs.push({ key, end: frame + 1 })
  }
  let start = 0
  return runs.map(({ key, end }) => {
    const stop = Math.round(end * DELAY_DEN / request.frameRate)
    const run = { key, delay: stop - start }
    start = stop
    return run
  })
}

/** The frames a run takes: its picture, then empty frames while it lasts longer than one frame may. */
const piecesOf = (delay: number): number => Math.max(1, Math.ceil(delay / MAX_DELAY))

/** What changed from one picture to the next: a rectangle of pixels, or nothing. */
interface Change extends Box {
  /** Deflated PNG rows of the rectangle. */
  readonly data: Uint8Array
}

/** The smallest rectangle holding every pixel that differs, or null when none does. */
const changedBox = (before: Buffer, after: Buffer, width: number, height: number): Box | null => {
  const stride = width * 4
  const rowDiffers = (y: number) => before.compare(after, y * stride, (y + 1) * stride, y * stride, (y + 1) * stride) !== 0
  let top = 0
  while (top < height && !rowDiffers(top)) top++
  if (top === height) return null
  let bottom = height - 1
  while (!rowDiffers(bottom)) bottom--
  const a = new Uint32Array(before.buffer, before.byteOffset, width * height)
  const b = new Uint32Array(after.buffer, after.byteOffset, width * height)
  let left = width
  let right = -1
  for (let y = top; y <= bottom; y++) {
    const row = y * width
    let x = 0
    while (x < left && a[row + x] === b[row + x]) x++
    left = x
    x = width - 1
    while (x > right && a[row + x] === b[row + x]) x--
    right = x
  }
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 }
}

/** PNG scanlines of a rectangle of `pixels`: a filter byte (0, none) before each row of RGBA. */
const pngRows = (pixels: Buffer, stride: number, box: Box): Buffer => {
  const row = box.width * 4
  const rows = Buffer.allocUnsafe((row + 1) * box.height)
  for (let y = 0; y < box.height; y++) {
    rows[y * (row + 1)] = 0
    const from = (box.y + y) * stride + box.x * 4
    pixels.copy(rows, y * (row + 1) + 1, from, from + row)
  }
  return rows
}

const BLEND_SOURCE = 0
const BLEND_OVER = 1

/** A single clear pixel blended over the picture: a frame that holds what is shown. */
const HOLD: Change = { x: 0, y: 0, width: 1, height: 1, data: deflateSync(Buffer.alloc(5)) }

/** Numbers APNG's chunks (frame controls and frame data share one sequence) and writes them. */
class ApngWriter {
  private sequence = 0
  constructor(private readonly width: number, private readonly height: number) {}

  header(frames: number): Buffer {
    const header = Buffer.alloc(13)
    header.writeUInt32BE(this.width, 0)
    header.writeUInt32BE(this.height, 4)
    header[8] = 8
    header[9] = 6
    const animation = Buffer.alloc(8)
    animation.writeUInt32BE(frames, 0)
    // Played once: for a looping APNG, ffmpeg asks the input's size first, which a pipe does not have.
    animation.writeUInt32BE(1, 4)
    return Buffer.concat([PNG_SIGNATURE, pngChunk("IHDR", header), pngChunk("acTL", animation)])
  }

  /** A frame: the first one is the whole picture (IDAT); later ones are rectangles over it (fdAT). */
  frame(change: Change, delay: number, blend: number): Buffer {
    const control = Buffer.alloc(26)
    control.writeUInt32BE(this.sequence++, 0)
    control.writeUInt32BE(change.width, 4)
    control.writeUInt32BE(change.height, 8)
    control.writeUInt32BE(change.x, 12)
    control.writeUInt32BE(change.y, 16)
    control.writeUInt16BE(delay, 20)
    control.writeUInt16BE(DELAY_DEN, 22)
    control[25] = blend
    if (this.sequence === 1) return Buffer.concat([pngChunk("fcTL", control), pngChunk("IDAT", change.data)])
    const data = Buffer.alloc(change.data.length + 4)
    data.writeUInt32BE(this.sequence++, 0)
    data.set(change.data, 4)
    return Buffer.concat([pngChunk("fcTL", control), pngChunk("fdAT", data)])
  }

  end(): Buffer {
    return pngChunk("IEND", new Uint8Array(0))
  }
}

/** Draws the sequence into `sink` as one APNG lasting exactly `frames` frames at `frameRate`. */
export const playFrameSequence = async (request: FrameSequenceRequest, sink: ByteSink): Promise<FrameSequence> => {
  const { width, height } = request
  const runs = runsOf(request)
  const apng = new ApngWriter(width, height)
  if (!(await sink(apng.header(runs.reduce((sum, run) => sum + piecesOf(run.delay), 0))))) return { pictures: 0, complete: false }
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext("2d")
  let pictures = 0
  const picture = (key: string): Buffer => {
    request.signal?.throwIfAborted()
    ctx.setTransform(1, 0, 0, 1, 0, 0)
    ctx.clearRect(0, 0, width, height)
    request.draw(ctx, key)
    pictures++
    // Un-premultiplied RGBA, as PNG stores it (Skia divides the partly transparent pixels by their alpha).
    const { data } = ctx.getImageData(0, 0, width, height)
    return Buffer.from(data.buffer, data.byteOffset, data.byteLength)
  }
  /** Each change, by the keys it goes from and to: the same step again costs no drawing. */
  const changes = new Map<string, Promise<Change>>()
  /** The RGBA size of each change kept, oldest first. */
  const sizes = new Map<string, number>()
  let keptBytes = 0
  const keep = (step: string, size: number) => {
    sizes.set(step, size)
    keptBytes += size
    for (const [old, oldSize] of sizes) {
      if (keptBytes <= (request.keptChangeBytes ?? KEPT_CHANGE_BYTES) || old === step) break
      sizes.delete(old)
      changes.delete(old)
      keptBytes -= oldSize
    }
  }
  /** The last picture drawn, and its key: the next change is measured from it. */
  let shown: { key: string; pixels: Buffer } | null = null
  const changeTo = (from: string | null, key: string): Promise<Change> => {
    const step = `${from ?? ""}\u0000${key}`
    const known = changes.get(step)
    if (known !== undefined) return known
    const before = from === null ? null : shown?.key === from ? shown.pixels : picture(from)
    const pixels = picture(key)
    shown = { key, pixels }
    const box = before === null ? { x: 0, y: 0, width, height } : changedBox(before, pixels, width, height)
    const change = box === null
      ? Promise.resolve(HOLD)
      : deflateAsync(pngRows(pixels, width * 4, box), { level: 1, chunkSize: 2 ** 21 }).then((data): Change => ({ ...box, data }))
    changes.set(step, change)
    keep(step, box === null ? 0 : box.width * box.height * 4)
    return change
  }
  const pending: Array<{ readonly change: Promise<Change>; readonly delay: number }> = []
  /** Writes the waiting frames, in order, until `keep` wait; false once the sink stops taking them. */
  const flush = async (keep: number): Promise<boolean> => {
    while (pending.length > keep) {
      const { change, delay } = pending.shift()!
      const c = await change
      // Numbered here, in order: compressions finish in any order. The first picture replaces the
      // canvas; a rectangle replaces its pixels (alpha too); a hold changes nothing.
      const pieces = [apng.frame(c, Math.min(delay, MAX_DELAY), c === HOLD ? BLEND_OVER : BLEND_SOURCE)]
      for (let left = delay - MAX_DELAY; left > 0; left -= MAX_DELAY) pieces.push(apng.frame(HOLD, Math.min(left, MAX_DELAY), BLEND_OVER))
      if (!(await sink(Buffer.concat(pieces)))) return false
    }
    return true
  }
  try {
    let from: string | null = null
    for (const run of runs) {
      pending.push({ change: changeTo(from, run.key), delay: run.delay })
      from = run.key
      if (!(await flush(IN_FLIGHT - 1))) return { pictures, complete: false }
      // A turn of the event loop between pictures, for the compressions that finished while this one was drawn.
      await new Promise((resolve) => setImmediate(resolve))
    }
    if (!(await flush(0))) return { pictures, complete: false }
  } finally {
    // Nothing is left compressing once this returns or throws.
    await Promise.allSettled(pending.map((p) => p.change))
  }
  return { pictures, complete: await sink(apng.end()) }
}
