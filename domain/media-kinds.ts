// What an uploaded file is, told from its first bytes rather than its name or declared type, and
// how large each kind may be.
import type { Motion } from "./picture-limits.ts"

export type MediaKind = "image" | "gif" | "video"

export const MAX_UPLOAD_BYTES: Readonly<Record<MediaKind, number>> = {
  image: 25 * 1000 * 1000,
  gif: 50 * 1000 * 1000,
  video: 500 * 1000 * 1000
}

/** Which picture limits each kind is held to: a gif decodes frame after frame, as a video does. */
export const MOTION_OF: Readonly<Record<MediaKind, Motion>> = { image: "still", gif: "moving", video: "moving" }

/** Enough of the file's start to recognise every accepted format. */
export const SNIFF_BYTES = 16

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, at = 0): boolean =>
  signature.every((b, i) => bytes[at + i] === b)

const ascii = (bytes: Uint8Array, from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to))

/** The kind and content type of a file from its first bytes; null for anything else. */
export const sniffMediaKind = (bytes: Uint8Array): { readonly kind: MediaKind; readonly contentType: string } | null => {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: "image", contentType: "image/png" }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: "image", contentType: "image/jpeg" }
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return { kind: "image", contentType: "image/webp" }
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return { kind: "gif", contentType: "image/gif" }
  if (ascii(bytes, 4, 8) === "ftyp") {
    return { kind: "video", contentType: ascii(bytes, 8, 10) === "qt" ? "video/quicktime" : "video/mp4" }
  }
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return { kind: "video", contentType: "video/webm" }
  return null
}
