// Raw frames read off an ffmpeg pipe one at a time, with back pressure: the decoder waits while the
// reader is behind, so a long video never piles up in memory.
import type { Readable } from "node:stream"

/** Samples held ahead of detection, so ffmpeg decodes the next ones while a frame is being detected. */
const FRAMES_AHEAD = 2

/**
 * Cuts a byte stream into frames of `frameBytes` as they arrive, pausing the stream while `FRAMES_AHEAD`
 * frames wait, so ffmpeg blocks instead of the whole video piling up in memory. `next` gives undefined
 * once the stream has ended.
 */
export const frameReader = (stream: Readable, frameBytes: number) => {
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
    if (ready.length >= FRAMES_AHEAD) stream.pause()
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
          if (ready.length < FRAMES_AHEAD) stream.resume()
          resolve(frame)
        } else if (ended) {
          resolve(undefined)
        } else {
          waiting = resolve
        }
      })
  }
}
