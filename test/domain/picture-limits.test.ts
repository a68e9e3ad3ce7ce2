import { describe, expect, it } from "vitest"
import { MOTION_OF } from "../../domain/media-kinds.ts"
import { MAX_DECODED_PIXELS, MAX_FRAME_RATE, PICTURE_LIMITS, pictureProblem, tooLargeToDecode } from "../../domain/picture-limits.ts"

const moving = (width: number, height: number, frameRate = 30) => pictureProblem("The video", "moving", { width, height, frameRate })
const still = (width: number, height: number) => pictureProblem("The image", "still", { width, height })

describe("picture limits", () => {
  it("holds a video or gif to 4096 pixels on a side and 4096x2176 in all, either way up", () => {
    expect(PICTURE_LIMITS.moving).toMatchObject({ maxSide: 4096, maxPixels: 8_912_896 })
    for (const [w, h] of [[4096, 2176], [2176, 4096], [3840, 2160], [1080, 1920], [4096, 1]] as const) expect(moving(w, h)).toBeNull()
    expect(moving(4097, 100)).toBe(
      "The video is 4097x100 pixels; a video or gif may be at most 4096 pixels on a side and 8.9 megapixels (4096x2176). Scale it down and send it again."
    )
    expect(moving(100, 4097)).toMatch(/^The video is 100x4097 pixels; /)
    // Within the side, over the area.
    expect(moving(4096, 2177)).toMatch(/^The video is 4096x2177 pixels; /)
    expect(moving(3000, 3000)).toMatch(/^The video is 3000x3000 pixels; /)
  })

  it("holds a still image to 8192 pixels on a side and 40 megapixels", () => {
    expect(PICTURE_LIMITS.still).toMatchObject({ maxSide: 8192, maxPixels: 40_000_000 })
    expect(still(8192, 4882)).toBeNull()
    expect(still(8193, 10)).toBe(
      "The image is 8193x10 pixels; a still image may be at most 8192 pixels on a side and 40 megapixels. Scale it down and send it again."
    )
    expect(still(8192, 4883)).toMatch(/^The image is 8192x4883 pixels; /)
  })

  it("refuses a moving picture above 120 frames per second, whatever a still one reports", () => {
    expect(MAX_FRAME_RATE).toBe(120)
    expect(moving(1920, 1080, 120)).toBeNull()
    expect(moving(1920, 1080, 120.5)).toBe(
      "The video plays at 120.5 frames per second; the limit is 120. Re-encode it at 60 or 30 and send it again."
    )
    expect(pictureProblem("The image", "still", { width: 100, height: 100, frameRate: 1000 })).toBeNull()
  })

  it("caps every decode at the largest picture any kind may have, and says so when a picture is above it", () => {
    expect(MAX_DECODED_PIXELS).toBe(40_000_000)
    const message = tooLargeToDecode(16000, 16000)
    expect(message).toBe(
      "The picture is 16000x16000 pixels, too large to decode: a video or gif may be at most 4096 pixels on a side and " +
        "8.9 megapixels, a still image 8192 and 40. Scale it down."
    )
    // The HTTP adapter cuts refusals at 200 characters.
    expect(message.length).toBeLessThan(200)
  })

  it("holds each upload kind to the limits of how it decodes", () => {
    expect(MOTION_OF).toEqual({ image: "still", gif: "moving", video: "moving" })
  })
})
