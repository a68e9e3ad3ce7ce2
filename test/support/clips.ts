// Small spoken test clips (festival speech over a still test picture) and frame-level pixel checks.
import { execFile } from "node:child_process"
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { type SpokenWord, speak } from "./festival.ts"

const run = promisify(execFile)

export interface WavFormat {
  readonly channels: number
  readonly sampleRate: number
  readonly bitsPerSample: number
  readonly durationSeconds: number
}

/** Reads the fmt and data chunks of a RIFF WAV file. */
export const readWavFormat = async (path: string): Promise<WavFormat> => {
  const wav = await readFile(path)
  if (wav.toString("ascii", 0, 4) !== "RIFF" || wav.toString("ascii", 8, 12) !== "WAVE") throw new Error(`${path} is not a WAV file`)
  let offset = 12
  let format: Omit<WavFormat, "durationSeconds"> | undefined
  let byteRate = 0
  while (offset + 8 <= wav.length) {
    const id = wav.toString("ascii", offset, offset + 4)
    const size = wav.readUInt32LE(offset + 4)
    if (id === "fmt ") {
      format = {
        channels: wav.readUInt16LE(offset + 10),
        sampleRate: wav.readUInt32LE(offset + 12),
        bitsPerSample: wav.readUInt16LE(offset + 22)
      }
      byteRate = wav.readUInt32LE(offset + 16)
    } else if (id === "data" && format !== undefined) {
      // Streamed WAVs may carry a placeholder size: count what is actually there.
      const bytes = Math.min(size, wav.length - offset - 8)
      return { ...format, durationSeconds: bytes / byteRate }
    }
    offset += 8 + size + (size % 2)
  }
  throw new Error(`${path} has no fmt/data chunks`)
}

export interface SpokenClip {
  readonly path: string
  /** Festival's word times, shifted by the leading silence. */
  readonly words: ReadonlyArray<SpokenWord>
  readonly durationSeconds: number
}

/**
 * Festival speech over SMPTE bars (a still picture, so any change between two frames of a render is
 * the captions), H.264 + AAC in mp4. Silence before and after the speech leaves caption-free stretches.
 */
export const makeSpokenClip = async (options: {
  readonly text: string
  readonly width: number
  readonly height: number
  readonly fps: number
  readonly silenceBefore?: number
  readonly silenceAfter?: number
  readonly dir: string
}): Promise<SpokenClip> => {
  const before = options.silenceBefore ?? 0
  const after = options.silenceAfter ?? 0
  const speech = await speak(options.text, options.dir)
  const { durationSeconds: spoken } = await readWavFormat(speech.wavPath)
  const durationSeconds = before + spoken + after
  const path = join(options.dir, `clip-${Math.random().toString(36).slice(2)}.mp4`)
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `smptehdbars=s=${options.width}x${options.height}:r=${options.fps}`,
    "-i", speech.wavPath,
    "-filter_complex", `[1:a]adelay=${Math.round(before * 1000)}:all=1,apad[a]`,
    "-map", "0:v", "-map", "[a]", "-t", durationSeconds.toFixed(3),
    "-c:v", "libx264", "-preset", "ultrafast", "-crf", "16", "-pix_fmt", "yuv420p",
    "-c:a", "aac", "-b:a", "96k",
    path
  ])
  return {
    path,
    words: speech.words.map((w) => ({ text: w.text, start: w.start + before, end: w.end + before })),
    durationSeconds
  }
}

export interface Frame {
  readonly width: number
  readonly height: number
  /** Packed RGB, 3 bytes a pixel, row by row. */
  readonly rgb: Buffer
}

/** Decodes the frame shown at `t` seconds as raw RGB (frame-accurate: ffmpeg decodes up to t). */
export const readFrame = async (path: string, t: number, width: number, height: number): Promise<Frame> => {
  const { stdout } = await run(
    "ffmpeg",
    ["-nostdin", "-v", "error", "-ss", t.toFixed(3), "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1"],
    { encoding: "buffer", maxBuffer: width * height * 3 + 1024 }
  )
  if (stdout.length !== width * height * 3) {
    throw new Error(`${path} at ${t}s: expected a ${width}x${height} frame, got ${stdout.length} bytes`)
  }
  return { width, height, rgb: stdout }
}

export interface Band {
  /** First row, inclusive. */
  readonly top: number
  /** Last row, exclusive. */
  readonly bottom: number
}

/**
 * The share (0..1) of pixels in a band of rows that differ between two frames by more than
 * `threshold` in some channel. Re-encoding noise stays far below the default threshold; text does not.
 */
export const bandDifference = (a: Frame, b: Frame, band: Band, threshold = 48): number => {
  if (a.width !== b.width || a.height !== b.height) throw new Error("frames of different sizes")
  const top = Math.max(0, band.top)
  const bottom = Math.min(a.height, band.bottom)
  let changed = 0
  for (let i = top * a.width * 3; i < bottom * a.width * 3; i += 3) {
    const d = Math.max(
      Math.abs(a.rgb[i]! - b.rgb[i]!),
      Math.abs(a.rgb[i + 1]! - b.rgb[i + 1]!),
      Math.abs(a.rgb[i + 2]! - b.rgb[i + 2]!)
    )
    if (d > threshold) changed++
  }
  return changed / Math.max(1, (bottom - top) * a.width)
}

/** PSNR in dB between two frames over the pixels `inside` picks (Infinity when they are identical there). */
export const psnr = (a: Frame, b: Frame, inside: (x: number, y: number) => boolean): number => {
  if (a.width !== b.width || a.height !== b.height) throw new Error("frames of different sizes")
  let sum = 0
  let n = 0
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!inside(x, y)) continue
      for (let c = 0; c < 3; c++) {
        const i = (y * a.width + x) * 3 + c
        const d = a.rgb[i]! - b.rgb[i]!
        sum += d * d
        n++
      }
    }
  }
  return n === 0 || sum === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / n))
}

/** Picks the pixels of a box, for `psnr`. */
export const within = (box: { readonly x: number; readonly y: number; readonly width: number; readonly height: number }) =>
  (x: number, y: number): boolean => x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height
