// The built-in illustrator: deterministic, varied by seed and prompt, and each art style recognisably itself.
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loadImage, createCanvas } from "@napi-rs/canvas"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { BuiltinIllustratorLive } from "../../adapters/imagery/builtin-illustrator.ts"
import { ART_STYLES, type ArtStyle } from "../../domain/art-styles.ts"
import { WorkFailed } from "../../domain/errors.ts"
import { type IllustrationRequest, Illustrator } from "../../domain/ports/illustrator.ts"

const WIDTH = 360
const HEIGHT = 640
const PROMPT = "a quiet beach at sunset"

let dir = ""
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "illustrator-"))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const style = (id: string): ArtStyle => ART_STYLES.find((s) => s.id === id)!

let files = 0
/** Draws the picture and returns the PNG's bytes. */
const draw = (request: Partial<IllustrationRequest> = {}) =>
  Effect.gen(function*() {
    const outputPng = request.outputPng ?? join(dir, `${files++}.png`)
    const illustrator = yield* Illustrator
    yield* illustrator.illustrate({ prompt: PROMPT, style: style("watercolor"), seed: 1, width: WIDTH, height: HEIGHT, ...request, outputPng })
    return yield* Effect.promise(() => readFile(outputPng))
  }).pipe(Effect.provide(BuiltinIllustratorLive))

const pixels = async (png: Buffer) => {
  const image = await loadImage(png)
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext("2d")
  ctx.drawImage(image, 0, 0)
  return { width: image.width, height: image.height, data: ctx.getImageData(0, 0, image.width, image.height).data }
}

const drawPixels = (request: Partial<IllustrationRequest> = {}) =>
  draw(request).pipe(Effect.flatMap((png) => Effect.promise(() => pixels(png))))

interface Stats {
  readonly mean: readonly [number, number, number]
  /** Share of pixels in each of 4x4x4 colour bins. */
  readonly histogram: ReadonlyArray<number>
  readonly lumaDeviation: number
  readonly colours: number
}

const stats = ({ data }: { data: Uint8ClampedArray }): Stats => {
  const n = data.length / 4
  const sum = [0, 0, 0]
  const histogram = new Array<number>(64).fill(0)
  const colours = new Set<number>()
  let luma = 0
  let lumaSquared = 0
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!]
    sum[0]! += r
    sum[1]! += g
    sum[2]! += b
    histogram[(r >> 6) * 16 + (g >> 6) * 4 + (b >> 6)]! += 1 / n
    colours.add((r << 16) | (g << 8) | b)
    const y = 0.299 * r + 0.587 * g + 0.114 * b
    luma += y
    lumaSquared += y * y
  }
  const meanLuma = luma / n
  return {
    mean: [sum[0]! / n, sum[1]! / n, sum[2]! / n],
    histogram,
    lumaDeviation: Math.sqrt(lumaSquared / n - meanLuma * meanLuma),
    colours: colours.size
  }
}

/** Half the L1 distance of two histograms: 0 for the same colours, 1 for no colour in common. */
const histogramDistance = (a: Stats, b: Stats) => a.histogram.reduce((d, v, i) => d + Math.abs(v - b.histogram[i]!), 0) / 2

/** Mean absolute difference per channel, 0 to 255. */
const difference = (a: Uint8ClampedArray, b: Uint8ClampedArray) => {
  let total = 0
  for (let i = 0; i < a.length; i++) if (i % 4 !== 3) total += Math.abs(a[i]! - b[i]!)
  return total / ((a.length / 4) * 3)
}

describe("BuiltinIllustrator", () => {
  it.effect("draws the same picture for the same request, byte for byte", () =>
    Effect.gen(function*() {
      const first = yield* draw({ seed: 42 })
      const second = yield* draw({ seed: 42 })
      expect(first.equals(second)).toBe(true)
    }))

  it.effect("draws a different picture for another seed", () =>
    Effect.gen(function*() {
      const a = yield* drawPixels({ seed: 1 })
      const b = yield* drawPixels({ seed: 2 })
      expect(difference(a.data, b.data)).toBeGreaterThan(4)
    }))

  it.effect("draws a different scene for another prompt", () =>
    Effect.gen(function*() {
      const beach = yield* drawPixels({ prompt: "a quiet beach at sunset" })
      const city = yield* drawPixels({ prompt: "a busy city street at night" })
      expect(difference(beach.data, city.data)).toBeGreaterThan(40)
      // Night is darker than a sunset.
      expect(stats(city).mean.reduce((a, b) => a + b)).toBeLessThan(stats(beach).mean.reduce((a, b) => a + b) - 60)
    }))

  describe("in every art style", () => {
    const drawn = new Map<string, Stats>()

    beforeAll(async () => {
      // Kept after the run, so a person can look at them.
      const previews = join(tmpdir(), "reelwright-art-style-previews")
      await mkdir(previews, { recursive: true })
      for (const s of ART_STYLES) {
        const png = await Effect.runPromise(draw({ style: s, outputPng: join(previews, `${s.id}.png`) }))
        const image = await pixels(png)
        expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true)
        expect([image.width, image.height]).toEqual([WIDTH, HEIGHT])
        drawn.set(s.id, stats(image))
      }
      console.log(`Art style previews (${WIDTH}x${HEIGHT}) are in ${previews}`)
    })

    it("gives a PNG of the asked size with a real picture in it, not a flat fill", () => {
      expect([...drawn.keys()]).toEqual(ART_STYLES.map((s) => s.id))
      for (const [id, s] of drawn) {
        expect(s.lumaDeviation, id).toBeGreaterThan(12)
        expect(s.colours, id).toBeGreaterThan(8)
      }
    })

    it("looks unlike every other style", () => {
      const ids = [...drawn.keys()]
      for (const [i, a] of ids.entries()) {
        for (const b of ids.slice(i + 1)) {
          const sa = drawn.get(a)!
          const sb = drawn.get(b)!
          expect(histogramDistance(sa, sb), `${a} vs ${b}`).toBeGreaterThan(0.35)
        }
      }
    })

    it("keeps pixel art to a small palette, and the others rich in shades", () => {
      expect(drawn.get("pixel-art")!.colours).toBeLessThanOrEqual(18)
      for (const [id, s] of drawn) if (id !== "pixel-art") expect(s.colours, id).toBeGreaterThan(100)
    })
  })

  it.effect("draws pixel art in crisp square blocks", () =>
    Effect.gen(function*() {
      // At 540x960 an art pixel is 3x3 screen pixels.
      const { data, width, height } = yield* drawPixels({ style: style("pixel-art"), width: 540, height: 960 })
      const at = (x: number, y: number) => {
        const i = (y * width + x) * 4
        return (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!
      }
      let mixed = 0
      for (let y = 0; y < height; y += 3) {
        for (let x = 0; x < width; x += 3) {
          const c = at(x, y)
          if (at(x + 1, y) !== c || at(x + 2, y) !== c || at(x, y + 1) !== c || at(x + 2, y + 2) !== c) mixed++
        }
      }
      expect(mixed).toBe(0)
      // ...and not one flat block: neighbouring art pixels do differ.
      let edges = 0
      for (let y = 0; y < height; y += 3) for (let x = 3; x < width; x += 3) if (at(x, y) !== at(x - 3, y)) edges++
      expect(edges).toBeGreaterThan(500)
    }))

  it.effect("refuses a size it cannot draw", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(draw({ width: 0, height: 640 }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain("0x640")
    }))

  it.effect("says where it could not write the picture", () =>
    Effect.gen(function*() {
      const outputPng = join(dir, "missing", "picture.png")
      const error = yield* Effect.flip(draw({ outputPng }))
      expect(error).toBeInstanceOf(WorkFailed)
      expect(error.message).toContain(outputPng)
    }))
})
