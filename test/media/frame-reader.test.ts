import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { frameReader } from "../../adapters/media/frame-reader.ts"

const MiB = 1024 * 1024

/** Writes `count` frames of `bytes`, each filled with its number, and says whether the stream is paused after each. */
const pausedAfterEach = (bytes: number, count: number) => {
  const stream = new PassThrough({ highWaterMark: bytes })
  const reader = frameReader(stream, bytes)
  const paused = Array.from({ length: count }, (_, i) => {
    stream.emit("data", Buffer.alloc(bytes, i))
    return stream.isPaused()
  })
  return { stream, reader, paused }
}

describe("frameReader", () => {
  it("holds 4 MiB of small frames ahead before it pauses the decoder", () => {
    // 1 MiB frames: four are held, and the fourth pauses the stream.
    expect(pausedAfterEach(MiB, 5).paused).toEqual([false, false, false, true, true])
  })

  it("holds two frames ahead however large they are", () => {
    expect(pausedAfterEach(3 * MiB, 3).paused).toEqual([false, true, true])
  })

  it("gives the frames in order, resumes the stream as they are taken, and undefined once it ends", async () => {
    const { reader, stream } = pausedAfterEach(MiB, 4)
    expect(stream.isPaused()).toBe(true)
    const first = await reader.next()
    expect(first?.[0]).toBe(0)
    expect(stream.isPaused()).toBe(false)
    // A frame split across chunks is put back together.
    stream.emit("data", Buffer.alloc(MiB / 2, 4))
    stream.emit("data", Buffer.alloc(MiB / 2, 4))
    const rest = [await reader.next(), await reader.next(), await reader.next(), await reader.next()]
    expect(rest.map((frame) => [frame?.[0], frame?.[MiB - 1], frame?.length])).toEqual([[1, 1, MiB], [2, 2, MiB], [3, 3, MiB], [4, 4, MiB]])
    stream.emit("end")
    expect(await reader.next()).toBeUndefined()
  })
})
