// A picture's size read from its header (PNG, JPEG, WebP), so its cost is known before anything
// decodes it: a decoder allocates width x height x 4 bytes whatever the file's size.
import { sniffMediaKind } from "../../domain/media-kinds.ts"

export interface PictureSize {
  readonly width: number
  readonly height: number
}

const ascii = (bytes: Uint8Array, from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to))

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** The first chunk after the signature is IHDR: width and height as 32-bit big-endian. */
const pngSize = (bytes: Uint8Array): PictureSize | null =>
  bytes.length >= 24 && ascii(bytes, 12, 16) === "IHDR"
    ? { width: view(bytes).getUint32(16), height: view(bytes).getUint32(20) }
    : null

/** DHT, JPG and DAC share the SOF range of markers but carry no frame size. */
const NOT_SOF = new Set([0xc4, 0xc8, 0xcc])

/** Walks the segments to the first start-of-frame, which holds the height then the width. */
const jpegSize = (bytes: Uint8Array): PictureSize | null => {
  const data = view(bytes)
  let at = 2
  while (at + 4 <= bytes.length) {
    const marker = bytes[at + 1]!
    if (bytes[at] !== 0xff || marker === 0xd9) return null
    if (marker === 0xff) {
      at += 1 // fill byte
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2 // markers without a length
      continue
    }
    if (marker >= 0xc0 && marker <= 0xcf && !NOT_SOF.has(marker)) {
      return at + 9 <= bytes.length ? { width: data.getUint16(at + 7), height: data.getUint16(at + 5) } : null
    }
    at += 2 + data.getUint16(at + 2)
  }
  return null
}

/** Lossy (VP8), lossless (VP8L) or extended (VP8X, whose canvas bounds every frame). */
const webpSize = (bytes: Uint8Array): PictureSize | null => {
  if (bytes.length < 30) return null
  const data = view(bytes)
  switch (ascii(bytes, 12, 16)) {
    case "VP8 ":
      return { width: data.getUint16(26, true) & 0x3fff, height: data.getUint16(28, true) & 0x3fff }
    case "VP8L": {
      const bits = data.getUint32(21, true)
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 }
    }
    case "VP8X":
      return {
        width: (data.getUint32(24, true) & 0xffffff) + 1,
        height: (data.getUint32(27, true) & 0xffffff) + 1
      }
    default:
      return null
  }
}

const READERS: Readonly<Record<string, (bytes: Uint8Array) => PictureSize | null>> = {
  "image/png": pngSize,
  "image/jpeg": jpegSize,
  "image/webp": webpSize
}

/** The size a PNG, JPEG or WebP declares; null for anything else or a header cut short. */
export const pictureSize = (bytes: Uint8Array): PictureSize | null => {
  const sniffed = sniffMediaKind(bytes)
  const read = sniffed === null ? undefined : READERS[sniffed.contentType]
  return read === undefined ? null : read(bytes)
}
