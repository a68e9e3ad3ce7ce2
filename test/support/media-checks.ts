// What the end-to-end tests read from the media the service made: a download, ffprobe's facts, loudness.
import { execFile } from "node:child_process"
import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { expect } from "vitest"

const run = promisify(execFile)

/** Fetches a link the service handed out into `dir`; the link must answer 200. */
export const download = async (url: string, dir: string, name: string): Promise<string> => {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  const path = join(dir, name)
  await writeFile(path, Buffer.from(await response.arrayBuffer()))
  return path
}

/** The first video stream's size, rate and frame count (counted by decoding), the length, and whether there is sound. */
export const probeVideo = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", "-count_frames", path])
  const facts = JSON.parse(stdout) as {
    format: { duration: string }
    streams: Array<{ codec_type: string; width?: number; height?: number; avg_frame_rate?: string; nb_read_frames?: string }>
  }
  const video = facts.streams.find((s) => s.codec_type === "video")!
  return {
    duration: Number(facts.format.duration),
    frames: Number(video.nb_read_frames),
    width: video.width,
    height: video.height,
    frameRate: video.avg_frame_rate,
    hasAudio: facts.streams.some((s) => s.codec_type === "audio")
  }
}

/** RMS loudness (0..1) of a file's sound between two times, mixed to mono. */
export const loudness = async (path: string, from: number, to: number): Promise<number> => {
  const { stdout } = await run("ffmpeg", ["-v", "error", "-ss", String(from), "-t", String(to - from), "-i", path, "-ac", "1", "-ar", "8000", "-f", "s16le", "-"], {
    encoding: "buffer",
    maxBuffer: 1 << 24
  })
  const samples = new Int16Array(stdout.buffer, stdout.byteOffset, Math.floor(stdout.length / 2))
  let sum = 0
  for (const s of samples) sum += (s / 32768) ** 2
  return Math.sqrt(sum / Math.max(1, samples.length))
}
