// The face finder skips the detector on a sample whose picture around the faces found last is unchanged
// (adapters/media/face-api-finder.ts): what counts as unchanged.
import { describe, expect, it } from "vitest"
import { stillAround } from "../../adapters/media/face-api-finder.ts"

const [W, H] = [64, 36]
const frame = (shade: number) => Buffer.alloc(W * H * 3, shade)
const paint = (rgb: Buffer, x0: number, y0: number, x1: number, y1: number, shade: number) => {
  const copy = Buffer.from(rgb)
  for (let y = y0; y < y1; y++) copy.fill(shade, (y * W + x0) * 3, (y * W + x1) * 3)
  return copy
}
const face = { x: 10, y: 8, width: 12, height: 12, score: 0.9 }

describe("stillAround", () => {
  const last = { rgb: frame(100), faces: [face], seconds: 0.5 }

  it("holds for the same picture, and for a change away from every face", () => {
    expect(stillAround(last, frame(100), W, H)).toBe(true)
    expect(stillAround(last, paint(frame(100), 40, 0, 64, 36, 250), W, H)).toBe(true)
  })

  it("fails when the face's box changes, or its margin (a head moving out of it)", () => {
    expect(stillAround(last, paint(frame(100), 10, 8, 22, 20, 160), W, H)).toBe(false)
    expect(stillAround(last, paint(frame(100), 22, 5, 26, 23, 250), W, H)).toBe(false)
  })

  it("passes noise below its threshold", () => {
    expect(stillAround(last, frame(103), W, H)).toBe(true)
    expect(stillAround(last, frame(110), W, H)).toBe(false)
  })

  it("fails where no face was found: one may appear anywhere", () => {
    expect(stillAround({ ...last, faces: [] }, frame(100), W, H)).toBe(false)
  })

  it("holds when only the background moves, beyond a tenth of the face's size around it", () => {
    const [w, h] = [160, 90]
    const plain = Buffer.alloc(w * h * 3, 100)
    const paintWide = (rgb: Buffer, x0: number, y0: number, x1: number, y1: number, shade: number) => {
      for (let y = y0; y < y1; y++) rgb.fill(shade, (y * w + x0) * 3, (y * w + x1) * 3)
      return rgb
    }
    // A ring 5 to 9 pixels out from a 40-pixel face: outside a tenth of its size (4), inside a quarter (10).
    const ring = paintWide(paintWide(Buffer.from(plain), 31, 11, 89, 69, 250), 35, 15, 85, 65, 100)
    const wide = { rgb: plain, faces: [{ x: 40, y: 20, width: 40, height: 40, score: 0.9 }], seconds: 0.5 }
    expect(stillAround(wide, ring, w, h)).toBe(true)
    // A ring 1 to 3 pixels out, within the tenth, is the head moving.
    expect(stillAround(wide, paintWide(paintWide(Buffer.from(plain), 37, 17, 83, 63, 250), 39, 19, 81, 61, 100), w, h)).toBe(false)
  })

  it("fails when any of two faces changes", () => {
    const two = { ...last, faces: [face, { ...face, x: 44 }] }
    expect(stillAround(two, frame(100), W, H)).toBe(true)
    expect(stillAround(two, paint(frame(100), 44, 8, 56, 20, 200), W, H)).toBe(false)
  })
})
