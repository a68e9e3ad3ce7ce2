// RIFF WAV for the speech and recognition adapters: reading the PCM layout and duration of a header,
// and writing the plain header of mono 16-bit PCM.
import { open } from "node:fs/promises"

export interface WavInfo {
  readonly sampleRate: number
  readonly channels: number
  readonly bitsPerSample: number
  readonly durationSeconds: number
  /** Where the samples start, in bytes from the start of the file. */
  readonly dataOffset: number
}

const HEADER_BYTES = 4096

/** Walks the chunks of the header; a file that is not PCM WAV is an error naming the path. */
export const readWavInfo = async (path: string): Promise<WavInfo> => {
  const file = await open(path, "r")
  try {
    const { size } = await file.stat()
    const head = Buffer.alloc(Math.min(HEADER_BYTES, size))
    await file.read(head, 0, head.length, 0)
    if (head.toString("ascii", 0, 4) !== "RIFF" || head.toString("ascii", 8, 12) !== "WAVE") {
      throw new Error(`${path} is not a WAV file`)
    }
    let format: Omit<WavInfo, "durationSeconds" | "dataOffset"> | undefined
    for (let at = 12; at + 8 <= head.length;) {
      const id = head.toString("ascii", at, at + 4)
      const length = head.readUInt32LE(at + 4)
      if (id === "fmt ") {
        format = { channels: head.readUInt16LE(at + 10), sampleRate: head.readUInt32LE(at + 12), bitsPerSample: head.readUInt16LE(at + 22) }
      } else if (id === "data" && format !== undefined) {
        // Streaming writers leave the data length at 0 or 0xFFFFFFFF: the rest of the file is the data.
        const dataBytes = length === 0 || at + 8 + length > size ? size - at - 8 : length
        const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8)
        return { ...format, durationSeconds: dataBytes / bytesPerSecond, dataOffset: at + 8 }
      }
      at += 8 + length + (length % 2)
    }
    throw new Error(`${path} has no PCM data chunk`)
  } finally {
    await file.close()
  }
}

/** The canonical 44-byte RIFF header of mono 16-bit PCM (pocketsphinx skips exactly 44 bytes of a `.wav`). */
export const pcmWavHeader = (samples: number, sampleRate: number): Buffer => {
  const header = Buffer.alloc(44)
  header.write("RIFF", 0, "latin1")
  header.writeUInt32LE(36 + samples * 2, 4)
  header.write("WAVEfmt ", 8, "latin1")
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write("data", 36, "latin1")
  header.writeUInt32LE(samples * 2, 40)
  return header
}
