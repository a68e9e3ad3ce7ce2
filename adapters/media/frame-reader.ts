// Raw frames read off an ffmpeg pipe one at a time, with back pressure: the decoder waits while the
// reader is behind, so a long video never piles up in memory.
import { spawn } from "node:child_process"
import type { Readable } from "node:stream"
import { Effect } from "effect"

/**
 * Bytes of frames held ahead of detection, so ffmpeg decodes the next ones while a frame is being detected
 * (and while the model loads): 14 of the face finder's 416x234 samples, 5 of the text detector's 640x384.
 * Two frames ahead left a core idle through each detection where ffmpeg had filled them.
 */
const AHEAD_BYTES = 4 * 1024 * 1024

/**
 * Cuts a byte stream into frames of `frameBytes` as they arrive, pausing the stream while AHEAD_BYTES of
 * frames (two at least) wait, so ffmpeg blocks instead of the whole video piling up in memory. `next`
 * gives undefined once the stream has ended.
 */
export const frameReader = (stream: Readable, frameBytes: number) => {
  const ahead = Math.max(2, Math.floor(AHEAD_BYTES / frameBytes))
  const ready: Array<Buffer> = []
  let current = Buffer.allocUnsafe(frameBytes)
  let filled = 0
  let ended = false
  let waiting: ((frame: Buffer | undefined) => void) | undefined
  stream.on("data", (chunk: Buffer) => {
    let offset = 0
    while (offset < chunk.length) {
      const copied = chunk.copy(current, filled, offset, Math.min(chunk.length, offset + frameBytes - filled))
      filled += copied
      offset += copied
      if (filled < frameBytes) continue
      const frame = current
      current = Buffer.allocUnsafe(frameBytes)
      filled = 0
      if (waiting !== undefined) {
        const resolve = waiting
        waiting = undefined
        resolve(frame)
      } else {
        ready.push(frame)
      }
    }
    if (ready.length >= ahead) stream.pause()
  })
  const finish = () => {
    ended = true
    waiting?.(undefined)
    waiting = undefined
  }
  stream.on("end", finish)
  stream.on("close", finish)
  stream.on("error", finish)
  return {
    next: () =>
      new Promise<Buffer | undefined>((resolve) => {
        const frame = ready.shift()
        if (frame !== undefined) {
          if (ready.length < ahead) stream.resume()
          resolve(frame)
        } else if (ended) {
          resolve(undefined)
        } else {
          waiting = resolve
        }
      })
  }
}

/**
 * An ffmpeg run whose `args` write raw frames of `frameBytes` to its stdout, read with `frameReader`;
 * closing the scope kills it (an interrupted look stops decoding). `exited` gives its exit, `stderr`
 * the end of what it wrote there.
 */
export const framePipe = (binary: string, args: ReadonlyArray<string>, frameBytes: number) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] })
      let stderr = ""
      child.stderr.setEncoding("utf8")
      child.stderr.on("data", (chunk: string) => {
        stderr = (stderr + chunk).slice(-16_000)
      })
      const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
        child.on("error", (error) => resolve({ code: null, error }))
        child.on("close", (code) => resolve({ code }))
      })
      return { frames: frameReader(child.stdout, frameBytes), exited, stderr: () => stderr, kill: () => child.kill("SIGKILL") }
    }),
    (pipe) => Effect.sync(pipe.kill)
  )
