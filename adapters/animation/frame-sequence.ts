// An animation as pictures for ffmpeg's concat demuxer: each distinct state is drawn once, as a PNG,
// and an ffconcat list holds it for as many frames as it lasts (a state seen before re-uses its file).
// Chat and quiz frames repeat a lot (a settled screen, the typing dots' cycle), so this draws a
// fraction of the frames. Compression runs on the libuv threadpool while the next picture is drawn.
import { createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import { writeFileSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { crc32, deflate } from "node:zlib"

const deflateAsync = promisify(deflate)

/** Pictures being compressed and written at once: each holds its 8 MB of rows (at 1080x1920) until written. */
const IN_FLIGHT = 3

const FRAME_LIST = "frames.ffconcat"

export interface FrameSequenceRequest {
  /** The folder for the pictures and the list; created when missing. */
  readonly dir: string
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
}

export interface FrameSequence {
  /** The ffconcat list, lasting exactly `frames` frames. */
  readonly path: string
  readonly frames: number
  /** How many pictures were drawn and written. */
  readonly pictures: number
}

interface Run {
  readonly key: string
  readonly frames: number
}

const runsOf = (frames: number, keyAt: (frame: number) => string): ReadonlyArray<Run> => {
  const runs: Array<Run> = []
  for (let frame = 0; frame < frames; frame++) {
    const key = keyAt(frame)
    const last = runs.at(-1)
    if (last?.key === key) runs[runs.length - 1] = { key, frames: last.frames + 1 }
    else runs.push({ key, frames: 1 })
  }
  return runs
}

export const writeFrameSequence = async (request: FrameSequenceRequest): Promise<FrameSequence> => {
  const { dir, width, height, frameRate } = request
  await mkdir(dir, { recursive: true })
  const runs = runsOf(request.frames, request.keyAt)
  const canvas = createCanvas(width, height)
  const ctx = canvas.getContext("2d")
  const names = new Map<string, string>()
  // Row buffers are reused: a fresh 8 MB each picture keeps the garbage collector busy.
  const spareRows: Array<Buffer> = []
  const pending = new Set<Promise<void>>()
  const failures: Array<unknown> = []
  try {
    for (const { key } of runs) {
      if (names.has(key)) continue
      request.signal?.throwIfAborted()
      ctx.setTransform(1, 0, 0, 1, 0, 0)
      ctx.clearRect(0, 0, width, height)
      request.draw(ctx, key)
      // Un-premultiplied RGBA, as PNG stores it (Skia divides the partly transparent pixels by their alpha).
      const pixels = ctx.getImageData(0, 0, width, height).data
      while (pending.size >= IN_FLIGHT) await Promise.race(pending)
      if (failures.length > 0) break
      const name = `p${String(names.size).padStart(5, "0")}.png`
      names.set(key, name)
      const rows = pngRows(pixels, width, height, spareRows.pop())
      const job: Promise<void> = encodePng(rows, width, height)
        .then((png) => {
          spareRows.push(rows)
          // Written at once: an asynchronous write would wait for three more turns of the busy event loop.
          writeFileSync(join(dir, name), png)
        })
        .catch((cause: unknown) => {
          failures.push(cause)
        })
        .finally(() => pending.delete(job))
      pending.add(job)
      // A turn of the event loop between pictures, for the compressions that finished while this one was drawn.
      await new Promise((resolve) => setImmediate(resolve))
    }
  } finally {
    // Nothing is left writing into the folder once this returns or throws.
    await Promise.all(pending)
  }
  if (failures.length > 0) throw failures[0]
  const path = join(dir, FRAME_LIST)
  await writeFile(path, concatList(runs, names, frameRate))
  return { path, frames: request.frames, pictures: names.size }
}

/**
 * Each picture's duration, from frame boundaries rounded to the microsecond (ffmpeg's own unit), so
 * rounding never accumulates. The last picture is listed again: the demuxer ignores the last duration.
 */
const concatList = (runs: ReadonlyArray<Run>, names: ReadonlyMap<string, string>, frameRate: number): string => {
  const lines = ["ffconcat version 1.0"]
  let frame = 0
  for (const run of runs) {
    const start = Math.round(frame * 1e6 / frameRate)
    frame += run.frames
    const end = Math.round(frame * 1e6 / frameRate)
    lines.push(`file ${names.get(run.key)!}`, `duration ${((end - start) / 1e6).toFixed(6)}`)
  }
  const last = runs.at(-1)
  if (last !== undefined) lines.push(`file ${names.get(last.key)!}`)
  return `${lines.join("\n")}\n`
}

/** PNG scanlines: a filter byte (0, none) before each row of RGBA. */
const pngRows = (pixels: Uint8ClampedArray, width: number, height: number, reuse: Buffer | undefined): Buffer => {
  const stride = width * 4
  const rows = reuse ?? Buffer.allocUnsafe((stride + 1) * height)
  const source = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength)
  for (let y = 0; y < height; y++) {
    rows[y * (stride + 1)] = 0
    source.copy(rows, y * (stride + 1) + 1, y * stride, (y + 1) * stride)
  }
  return rows
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

const chunk = (type: string, data: Uint8Array): Buffer => {
  const out = Buffer.alloc(data.length + 12)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "latin1")
  out.set(data, 8)
  out.writeUInt32BE(crc32(out.subarray(4, data.length + 8)), data.length + 8)
  return out
}

/**
 * An RGBA PNG that is also a one-frame APNG. The concat demuxer keeps the timestamps in the first
 * file's time base: a plain PNG's is 1/25 s, which moves or drops pictures held for one frame;
 * an APNG's is 1/100000 s, so every picture starts on its frame. Its own delay is the shortest
 * APNG has (1/65535 s), so the last picture, listed again, adds no frame after the list's durations.
 */
const encodePng = async (rows: Buffer, width: number, height: number): Promise<Buffer> => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 6
  const animation = Buffer.alloc(8)
  animation.writeUInt32BE(1, 0)
  animation.writeUInt32BE(1, 4)
  const frame = Buffer.alloc(26)
  frame.writeUInt32BE(width, 4)
  frame.writeUInt32BE(height, 8)
  frame.writeUInt16BE(1, 20)
  frame.writeUInt16BE(65_535, 22)
  // Output comes back to the event loop a chunk at a time, and the loop is busy drawing: one chunk, one trip.
  const pixels = await deflateAsync(rows, { level: 1, chunkSize: 2 ** 21 })
  return Buffer.concat([
    SIGNATURE,
    chunk("IHDR", header),
    chunk("acTL", animation),
    chunk("fcTL", frame),
    chunk("IDAT", pixels),
    chunk("IEND", new Uint8Array(0))
  ])
}
