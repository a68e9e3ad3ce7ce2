// The header reader agrees with ffprobe on real files of each format, and reads nothing from a file
// that is not one or whose header is cut short.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pictureSize } from "../../adapters/imagery/picture-size.ts"

const run = promisify(execFile)

let dir = ""

/** One frame of `size` in `name`'s format, written by ffmpeg with `args`. */
const picture = async (name: string, size: string, ...args: Array<string>) => {
  const path = join(dir, name)
  await run("ffmpeg", ["-nostdin", "-y", "-v", "error", "-f", "lavfi", "-i", `color=c=orange:s=${size}`, "-frames:v", "1", ...args, path])
  return readFile(path)
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "picture-size-"))
})

afterAll(async () => {
  if (dir !== "") await rm(dir, { recursive: true, force: true })
})

describe("pictureSize", () => {
  it("reads the size of PNG, JPEG and lossy, lossless and extended WebP", async () => {
    const cases = [
      ["a.png", "320x242", []],
      ["a.jpg", "322x244", []],
      ["lossy.webp", "324x246", ["-c:v", "libwebp"]],
      ["lossless.webp", "326x248", ["-c:v", "libwebp", "-lossless", "1"]],
      // Transparency with lossy coding makes an extended (VP8X) file.
      ["alpha.webp", "328x250", ["-vf", "format=yuva420p,colorchannelmixer=aa=0.5", "-c:v", "libwebp"]]
    ] as const
    for (const [name, size, args] of cases) {
      const [width, height] = size.split("x").map(Number)
      expect(pictureSize(await picture(name, size, ...args)), name).toEqual({ width, height })
    }
  })

  it("reads a huge PNG's size from a few bytes of its header", async () => {
    const png = await run("ffmpeg", [
      "-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=white:s=16000x9000", "-frames:v", "1", "-pix_fmt", "monob",
      "-f", "image2pipe", "-c:v", "png", "-"
    ], { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 })
    expect(pictureSize(png.stdout.subarray(0, 24))).toEqual({ width: 16000, height: 9000 })
  })

  it("reads nothing from what is not a PNG, JPEG or WebP, or from a header cut short", async () => {
    const png = await picture("b.png", "64x48")
    const jpeg = await picture("b.jpg", "64x48")
    expect(pictureSize(new TextEncoder().encode("GIF89a not a picture we decode"))).toBeNull()
    expect(pictureSize(new Uint8Array())).toBeNull()
    expect(pictureSize(png.subarray(0, 20))).toBeNull()
    expect(pictureSize(jpeg.subarray(0, 40))).toBeNull()
  })
})
