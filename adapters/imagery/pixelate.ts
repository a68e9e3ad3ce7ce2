// Pixel art from a small painting: every pixel snapped to the style's palette with ordered dithering, then blown up without smoothing.
import type { Canvas, SKRSContext2D } from "@napi-rs/canvas"
import { parseHex, type Rgb, shade } from "./colours.ts"

const BAYER_4X4 = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]
const DITHER_SPREAD = 36

/** How many screen pixels make one art pixel: about 170 art pixels across the short side. */
export const pixelScale = (width: number, height: number): number =>
  Math.max(2, Math.round(Math.min(width, height) / 170))

/** The palette, each colour also a shade darker and lighter: a retro console's worth of colours. */
const consoleColours = (palette: ReadonlyArray<string>): ReadonlyArray<Rgb> =>
  palette.flatMap((c) => [c, shade(c, -0.35), shade(c, 0.3)]).map(parseHex)

export const pixelate = (small: Canvas, palette: ReadonlyArray<string>, target: SKRSContext2D, scale: number) => {
  const ctx = small.getContext("2d")
  const image = ctx.getImageData(0, 0, small.width, small.height)
  const data = image.data
  const colours = consoleColours(palette)
  for (let y = 0; y < small.height; y++) {
    for (let x = 0; x < small.width; x++) {
      const i = (y * small.width + x) * 4
      const bias = (BAYER_4X4[(y % 4) * 4 + (x % 4)]! / 16 - 0.5) * DITHER_SPREAD
      const r = data[i]! + bias
      const g = data[i + 1]! + bias
      const b = data[i + 2]! + bias
      let best = colours[0]!
      let bestDistance = Infinity
      for (const c of colours) {
        const d = (c[0] - r) ** 2 * 0.3 + (c[1] - g) ** 2 * 0.59 + (c[2] - b) ** 2 * 0.11
        if (d < bestDistance) {
          bestDistance = d
          best = c
        }
      }
      data[i] = best[0]
      data[i + 1] = best[1]
      data[i + 2] = best[2]
      data[i + 3] = 255
    }
  }
  ctx.putImageData(image, 0, 0)
  target.imageSmoothingEnabled = false
  target.drawImage(small, 0, 0, small.width * scale, small.height * scale)
}
