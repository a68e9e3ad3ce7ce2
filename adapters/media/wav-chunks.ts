// Cutting a 16 kHz mono 16-bit WAV into chunks at quiet points, each a WAV of its own, for recognisers
// that take long audio piecewise: pocketsphinx (one chunk per core) and hosted services (an upload limit).
// A word's time in a chunk plus the chunk's start is its time in the whole.
import { Effect } from "effect"
import { createReadStream, createWriteStream } from "node:fs"
import { open } from "node:fs/promises"
import { pipeline } from "node:stream/promises"
import { pcmWavHeader } from "./wav-file.ts"

export const SAMPLE_RATE = 16_000
/** The bytes of the header `writeChunk` gives each chunk. */
export const CHUNK_HEADER_BYTES = 44
/** 10 ms of samples. */
const FRAME = 160
/** A cut goes in the middle of the quietest 200 ms near its target. */
const QUIET_FRAMES = 20
const SEARCH_SECONDS = 5

export interface PcmLayout {
  readonly dataOffset: number
  readonly samples: number
}

/** A range of samples, end exclusive. */
export interface Chunk {
  readonly start: number
  readonly end: number
}

/** Into `count` chunks, or into as few as keep every chunk within `maxSamples`. */
export type ChunkPlan = { readonly count: number } | { readonly maxSamples: number }

const malformed = (path: string, what: string) => Effect.die(new Error(`${path} is not a 16 kHz mono 16-bit WAV: ${what}`))

/** Finds the samples in a RIFF file and checks they are the PCM the chunks' headers describe. */
export const readLayout = (path: string) =>
  Effect.acquireUseRelease(
    Effect.promise(() => open(path)),
    (file) =>
      Effect.gen(function*() {
        const size = (yield* Effect.promise(() => file.stat())).size
        const read = (position: number, length: number) =>
          Effect.promise(async () => {
            const buffer = Buffer.alloc(length)
            const { bytesRead } = await file.read(buffer, 0, length, position)
            return buffer.subarray(0, bytesRead)
          })
        const riff = yield* read(0, 12)
        if (riff.toString("latin1", 0, 4) !== "RIFF" || riff.toString("latin1", 8, 12) !== "WAVE") {
          return yield* malformed(path, "no RIFF/WAVE header")
        }
        let position = 12
        let formatChecked = false
        while (position + 8 <= size) {
          const header = yield* read(position, 8)
          const id = header.toString("latin1", 0, 4)
          const length = header.readUInt32LE(4)
          if (id === "fmt ") {
            const fmt = yield* read(position + 8, 16)
            const [format, channels, rate, bits] = [fmt.readUInt16LE(0), fmt.readUInt16LE(2), fmt.readUInt32LE(4), fmt.readUInt16LE(14)]
            if (format !== 1 || channels !== 1 || rate !== SAMPLE_RATE || bits !== 16) {
              return yield* malformed(path, `format ${format}, ${channels} channels, ${rate} Hz, ${bits} bits`)
            }
            formatChecked = true
          } else if (id === "data") {
            if (!formatChecked) return yield* malformed(path, "no fmt chunk before the data")
            // A WAV written to a pipe may carry a placeholder length; the file's end is the truth.
            const bytes = Math.min(length, size - position - 8)
            return { dataOffset: position + 8, samples: Math.floor(bytes / 2) } satisfies PcmLayout
          }
          position += 8 + length + (length % 2)
        }
        return yield* malformed(path, "no data chunk")
      }),
    (file) => Effect.promise(() => file.close())
  )

/** How far from its target a cut may move, for chunks `length` samples apart. */
const searchRadius = (length: number): number => Math.min(SEARCH_SECONDS * SAMPLE_RATE, Math.floor(length / 4))

/**
 * The fewest chunks of which even the longest possible one fits in `maxSamples`: a chunk is its even
 * share (plus a sample of rounding) widened by the search radius at both of its cuts.
 */
const countWithin = (samples: number, maxSamples: number): number => {
  let count = Math.max(1, Math.ceil(samples / maxSamples))
  const longest = (count: number) => count === 1 ? samples : Math.floor(samples / count) + 1 + 2 * searchRadius(samples / count)
  while (count < samples && longest(count) > maxSamples) count++
  return count
}

/** The sample in the middle of the quietest stretch within `radius` of `target`. */
const quietestNear = (path: string, layout: PcmLayout, target: number, radius: number) =>
  Effect.promise(async () => {
    const from = Math.max(0, target - radius)
    const to = Math.min(layout.samples, target + radius)
    const buffer = Buffer.alloc((to - from) * 2)
    const file = await open(path)
    try {
      await file.read(buffer, 0, buffer.length, layout.dataOffset + from * 2)
    } finally {
      await file.close()
    }
    const frames = Math.floor((to - from) / FRAME)
    const energy = new Float64Array(frames)
    for (let f = 0; f < frames; f++) {
      for (let s = f * FRAME; s < (f + 1) * FRAME; s++) energy[f]! += buffer.readInt16LE(s * 2) ** 2
    }
    let best = Math.max(0, Math.floor((target - from) / FRAME) - QUIET_FRAMES / 2)
    let bestSum = Infinity
    let sum = 0
    for (let f = 0; f < frames; f++) {
      sum += energy[f]!
      if (f >= QUIET_FRAMES) sum -= energy[f - QUIET_FRAMES]!
      if (f >= QUIET_FRAMES - 1 && sum < bestSum) {
        bestSum = sum
        best = f - QUIET_FRAMES + 1
      }
    }
    return from + (best + QUIET_FRAMES / 2) * FRAME
  })

/** Sample ranges that cover the audio in order, cut in the quietest places near evenly spaced targets. */
export const chunksOf = (path: string, layout: PcmLayout, plan: ChunkPlan) =>
  Effect.gen(function*() {
    const count = "count" in plan ? plan.count : countWithin(layout.samples, plan.maxSamples)
    const length = layout.samples / count
    const radius = searchRadius(length)
    const cuts = yield* Effect.forEach(
      Array.from({ length: count - 1 }, (_, i) => Math.round((i + 1) * length)),
      (target) => quietestNear(path, layout, target, radius)
    )
    const bounds = [0, ...cuts, layout.samples]
    return bounds.slice(1).map((end, i): Chunk => ({ start: bounds[i]!, end })).filter((chunk) => chunk.end > chunk.start)
  })

/** Copies one range of samples into a WAV of its own, streamed: a chunk may be minutes long. */
export const writeChunk = (source: string, layout: PcmLayout, chunk: Chunk, target: string) =>
  Effect.promise(() =>
    pipeline(
      async function*() {
        yield pcmWavHeader(chunk.end - chunk.start, SAMPLE_RATE)
        yield* createReadStream(source, {
          start: layout.dataOffset + chunk.start * 2,
          end: layout.dataOffset + chunk.end * 2 - 1
        })
      },
      createWriteStream(target)
    )
  )
