import { describe, expect, it } from "vitest"
import { sniffMediaKind } from "../../domain/media-kinds.ts"

const bytes = (...parts: Array<string | ReadonlyArray<number>>): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : [...p])))

describe("sniffMediaKind", () => {
  it("tells pictures, gifs and clips by their first bytes", () => {
    expect(sniffMediaKind(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a]))).toEqual({ kind: "image", contentType: "image/png" })
    expect(sniffMediaKind(bytes([0xff, 0xd8, 0xff, 0xe0]))).toEqual({ kind: "image", contentType: "image/jpeg" })
    expect(sniffMediaKind(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "))).toEqual({ kind: "image", contentType: "image/webp" })
    expect(sniffMediaKind(bytes("GIF89a"))).toEqual({ kind: "gif", contentType: "image/gif" })
    expect(sniffMediaKind(bytes([0, 0, 0, 0x20], "ftypisom"))).toEqual({ kind: "video", contentType: "video/mp4" })
    expect(sniffMediaKind(bytes([0, 0, 0, 0x14], "ftypqt  "))).toEqual({ kind: "video", contentType: "video/quicktime" })
    expect(sniffMediaKind(bytes([0x1a, 0x45, 0xdf, 0xa3]))).toEqual({ kind: "video", contentType: "video/webm" })
  })

  it("refuses anything else, whatever it is called", () => {
    expect(sniffMediaKind(bytes("<!doctype html>"))).toBeNull()
    expect(sniffMediaKind(bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "))).toBeNull()
    expect(sniffMediaKind(new Uint8Array())).toBeNull()
  })
})
