import { describe, expect, it } from "vitest"
import { checkStrips, fromStrips, sampledSize, STRIP_MARGIN, textRemainingShare } from "../../domain/removal-check.ts"

const [W, H] = [1080, 1920]
const caption = { x: 100, y: 1400, width: 880, height: 120 }
const watermark = { x: 40, y: 90, width: 300, height: 50 }

describe("the check's strips", () => {
  it("cut each wiped box with its margin, top to bottom, on even pixels, stacked as wide as the widest", () => {
    const stack = checkStrips([caption, watermark], W, H)
    expect(stack).toEqual({
      strips: [
        { box: { x: 16, y: 66, width: 348, height: 98 }, top: 0 },
        { box: { x: 76, y: 1376, width: 928, height: 168 }, top: 98 }
      ],
      width: 928,
      height: 266
    })
    expect(stack!.strips[1]!.box.x).toBe(caption.x - STRIP_MARGIN)
  })

  it("keep to the picture, and make boxes that meet one strip (a caption at one place all video long is one)", () => {
    expect(checkStrips([caption, caption, { ...caption, y: caption.y + 60 }], W, H)?.strips).toEqual([
      { box: { x: 76, y: 1376, width: 928, height: 228 }, top: 0 }
    ])
    // Two boxes that do not meet, until the first grows to take in a third that meets both.
    const merged = checkStrips([{ x: 0, y: 0, width: 100, height: 40 }, { x: 0, y: 200, width: 100, height: 40 }, { x: 0, y: 30, width: 100, height: 180 }], W, H)
    expect(merged?.strips).toEqual([{ box: { x: 0, y: 0, width: 124, height: 264 }, top: 0 }])
  })

  it("are none when the stack would hold half the picture or more", () => {
    expect(checkStrips([], W, H)).toBeNull()
    expect(checkStrips([{ x: 0, y: 0, width: W, height: H / 2 }], W, H)).toBeNull()
    expect(checkStrips([{ x: 0, y: 0, width: W, height: H / 2 - 100 }], W, H)).not.toBeNull()
  })

  it("are sampled at the whole picture's scale, on even pixels", () => {
    const stack = checkStrips([caption, watermark], W, H)!
    expect(sampledSize(stack, 1 / 3)).toEqual({ width: 310, height: 88 })
    expect(sampledSize(stack, 1)).toEqual({ width: 928, height: 266 })
  })

  it("put a box found on the scaled stack back in the picture, in the strip its middle is in", () => {
    const stack = checkStrips([caption, watermark], W, H)!
    const sampled = { width: stack.width / 2, height: stack.height / 2 }
    // Half scale: 10 px into the second strip's picture is 5 px in the samples.
    const found = fromStrips(stack, sampled, { x: 50, y: (98 + 24) / 2, width: 100, height: 60, score: 0.9 })
    expect(found).toEqual({ x: 76 + 100, y: 1376 + 24, width: 200, height: 120, score: 0.9 })
    // Reaching past its strip's bottom into the next: cut to the strip its middle is in.
    expect(fromStrips(stack, sampled, { x: 0, y: 35, width: 20, height: 20, score: 0.5 })).toEqual({ x: 16, y: 66 + 70, width: 40, height: 28, score: 0.5 })
    // Right of the narrower first strip there is only padding.
    expect(fromStrips(stack, sampled, { x: 300, y: 10, width: 20, height: 10, score: 0.9 })).toBeUndefined()
  })
})

describe("the share of checked frames with text left", () => {
  it("counts a frame whose text lies over a region wiped at that time, and nothing else", () => {
    const region = { kind: "caption" as const, box: caption, startSeconds: 1, endSeconds: 3, score: 0.9 }
    const over = { x: 200, y: 1420, width: 100, height: 40, score: 0.6 }
    const elsewhere = { x: 200, y: 600, width: 100, height: 40, score: 0.9 }
    const samples = [
      { atSeconds: 0.5, boxes: [over] },
      { atSeconds: 1.5, boxes: [over] },
      { atSeconds: 2.5, boxes: [elsewhere] },
      { atSeconds: 3.5, boxes: [] }
    ]
    expect(textRemainingShare(samples, [region])).toBe(0.25)
    expect(textRemainingShare([], [region])).toBe(0)
  })
})
