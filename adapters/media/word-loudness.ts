// How loud each span of a 16-bit PCM WAV is (RMS in dBFS), read span by span so a two-hour source
// never sits in memory whole: what tells a stressed word from its neighbours.
import { open } from "node:fs/promises"
import { readWavInfo } from "./wav-file.ts"

/** Silence (and a span with no samples) reads as this, not minus infinity. */
const FLOOR_DB = -100

export const spanLoudness = async (wavPath: string, spans: ReadonlyArray<{ readonly start: number; readonly end: number }>): Promise<ReadonlyArray<number>> => {
  const info = await readWavInfo(wavPath)
  if (info.bitsPerSample !== 16) throw new Error(`${wavPath}: expected 16-bit PCM, got ${info.bitsPerSample}-bit`)
  const frameBytes = 2 * info.channels
  const file = await open(wavPath, "r")
  try {
    const { size } = await file.stat()
    const frames = Math.floor((size - info.dataOffset) / frameBytes)
    const out: Array<number> = []
    for (const span of spans) {
      const first = Math.max(0, Math.floor(span.start * info.sampleRate))
      const last = Math.min(frames, Math.ceil(span.end * info.sampleRate))
      if (last <= first) {
        out.push(FLOOR_DB)
        continue
      }
      const bytes = Buffer.alloc((last - first) * frameBytes)
      await file.read(bytes, 0, bytes.length, info.dataOffset + first * frameBytes)
      let sum = 0
      for (let i = 0; i + 1 < bytes.length; i += 2) {
        const v = bytes.readInt16LE(i) / 32768
        sum += v * v
      }
      const rms = Math.sqrt(sum / (bytes.length / 2))
      out.push(rms > 0 ? Math.max(FLOOR_DB, 20 * Math.log10(rms)) : FLOOR_DB)
    }
    return out
  } finally {
    await file.close()
  }
}
