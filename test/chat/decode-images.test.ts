// Pictures drawn in chats are measured from their header before they are decoded: one above a still
// image's limits is refused without decoding it (a file stored before the limits may be that large).
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { decodeImages } from "../../adapters/chat/canvas-chat-painter.ts"

const run = promisify(execFile)

const png = async (size: string, ...args: Array<string>): Promise<Uint8Array> =>
  (await run("ffmpeg", [
    "-nostdin", "-v", "error", "-f", "lavfi", "-i", `color=c=white:s=${size}`, "-frames:v", "1", ...args,
    "-f", "image2pipe", "-c:v", "png", "-"
  ], { encoding: "buffer", maxBuffer: 16 * 1024 * 1024 })).stdout

describe("decodeImages", () => {
  it("decodes pictures within a still image's limits", async () => {
    const images = await Effect.runPromise(decodeImages(new Map([["small", await png("64x48")]])))
    expect([images.get("small")!.width, images.get("small")!.height]).toEqual([64, 48])
  })

  it("refuses a 16000x16000 png by its header, naming it and the limit", async () => {
    const huge = await png("16000x16000", "-pix_fmt", "monob")
    const error = await Effect.runPromise(Effect.flip(decodeImages(new Map([["avatar-key", huge]]))))
    expect(error.message).toBe(
      "The picture avatar-key is 16000x16000 pixels; a still image may be at most 8192 pixels on a side and 40 megapixels. Scale it down and send it again."
    )
  })

  it("refuses bytes that are not a png, jpeg or webp", async () => {
    const error = await Effect.runPromise(Effect.flip(decodeImages(new Map([["notes", new TextEncoder().encode("just text")]]))))
    expect(error.message).toBe("The picture notes could not be decoded; upload a PNG, JPEG or WebP.")
  })
})
