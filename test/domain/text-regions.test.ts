// Text boxes found on sampled frames, tracked over time into regions to wipe.
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import { type DetectedBox, type FrameSample, type TextRegion, trackRegions, type TrackOptions, wipeableBox } from "../../domain/text-regions.ts"

const W = 360
const H = 640
const PER_SECOND = 2

/** `seconds` of samples at the detector's instants ((i + 0.5) / rate), each with the boxes `at` gives. */
const sampled = (seconds: number, at: (t: number, index: number) => ReadonlyArray<DetectedBox>): Array<FrameSample> =>
  Array.from({ length: seconds * PER_SECOND }, (_, i) => {
    const atSeconds = (i + 0.5) / PER_SECOND
    return { atSeconds, boxes: at(atSeconds, i) }
  })

const options = (durationSeconds: number, more: Partial<TrackOptions> = {}): TrackOptions => ({
  samplesPerSecond: PER_SECOND,
  durationSeconds,
  width: W,
  height: H,
  target: "all",
  region: null,
  ...more
})

const box = (x: number, y: number, width: number, height: number, score = 0.98): DetectedBox => ({ x, y, width, height, score })

/** "@handle" near the top left, as the detector finds it: a pixel of jitter from frame to frame. */
const handle = (index: number) => box(20 + (index % 2), 24 - (index % 3 === 0 ? 1 : 0), 154, 26, 0.99)

/** Three captions of different widths on one line, 28 px high at y 437 (as drawtext centres them). */
const CAPTIONS = [box(52, 437, 257, 28), box(17, 437, 325, 28), box(125, 437, 109, 28)]

const kinds = (regions: ReadonlyArray<TextRegion>) => regions.map((r) => r.kind)

describe("trackRegions", () => {
  it("a static watermark spans the whole video with the union of its boxes, padded by 8 px", () => {
    const regions = trackRegions(sampled(10, (_, i) => [handle(i)]), options(10))
    expect(regions).toEqual([
      {
        kind: "watermark",
        // union x 20..175, y 23..50; padded by 8 and widened to even pixels
        box: { x: 12, y: 14, width: 172, height: 44 },
        startSeconds: 0,
        endSeconds: 10,
        score: expect.closeTo(0.99, 6) as unknown as number
      }
    ])
  })

  it("a watermark the detector missed on a few samples, or that fades in and out, is still a watermark", () => {
    const missed = sampled(10, (_, i) => (i === 7 ? [] : [handle(i)]))
    expect(kinds(trackRegions(missed, options(10)))).toEqual(["watermark"])
    const fading = sampled(3, (_, i) => (i === 0 || i === 5 ? [] : [handle(i)]))
    expect(kinds(trackRegions(fading, options(3)))).toEqual(["watermark"])
    // seen on 8 of 20 samples: text that comes and goes
    const partly = sampled(10, (_, i) => (i < 8 ? [handle(i)] : []))
    expect(trackRegions(partly, options(10))).toMatchObject([{ kind: "caption", startSeconds: 0, endSeconds: 4.25 }])
  })

  it("captions replacing each other every 2 s in one band are one caption region over their union, for their whole run", () => {
    // 6 s: each caption shown for 2 s, on every sample: text present all along, but it does not stay put
    const samples = sampled(6, (t) => [CAPTIONS[Math.floor(t / 2)]!])
    const regions = trackRegions(samples, options(6))
    expect(regions).toEqual([
      { kind: "caption", box: { x: 8, y: 428, width: 342, height: 46 }, startSeconds: 0, endSeconds: 6, score: expect.closeTo(0.98, 6) }
    ])
  })

  it("captions every 2 s with pauses between them: one region each, spanning the samples around their sightings", () => {
    // caption k is on screen 2k+0.3 .. 2k+1.7 s, so it is seen at 2k+0.75 and 2k+1.25
    const shown = (k: number) => ({ from: 2 * k + 0.3, to: 2 * k + 1.7 })
    const samples = sampled(6, (t) => {
      const k = Math.floor(t / 2)
      return t >= shown(k).from && t <= shown(k).to ? [CAPTIONS[k]!] : []
    })
    const regions = trackRegions(samples, options(6))
    expect(regions.map((r) => [r.startSeconds, r.endSeconds])).toEqual([[0.25, 1.75], [2.25, 3.75], [4.25, 5.75]])
    expect(regions.map((r) => r.box)).toEqual([
      { x: 44, y: 428, width: 274, height: 46 },
      { x: 8, y: 428, width: 342, height: 46 },
      { x: 116, y: 428, width: 126, height: 46 }
    ])
    // every moment a caption is on screen is covered, though the samples only saw part of it
    regions.forEach((r, k) => {
      expect(r.startSeconds).toBeLessThanOrEqual(shown(k).from)
      expect(r.endSeconds).toBeGreaterThanOrEqual(shown(k).to)
    })
  })

  it("a caption the detector missed on one sample still leaves no moment unwiped", () => {
    const samples = sampled(4, (_, i) => (i >= 1 && i <= 6 && i !== 3 ? [CAPTIONS[0]!] : []))
    const spans = trackRegions(samples, options(4)).map((r) => [r.startSeconds, r.endSeconds])
    // seen 0.75..3.25 but not at 1.75: the two parts meet at the sample that missed it
    expect(spans).toEqual([[0.25, 1.75], [1.75, 3.75]])
  })

  it("a caption and a watermark are told apart; target keeps one kind or both", () => {
    const samples = sampled(6, (t, i) => [handle(i), ...(t > 1 && t < 4 ? [CAPTIONS[1]!] : [])])
    expect(kinds(trackRegions(samples, options(6)))).toEqual(["watermark", "caption"])
    expect(trackRegions(samples, options(6, { target: "captions" }))).toMatchObject([
      { kind: "caption", startSeconds: 0.75, endSeconds: 4.25 }
    ])
    expect(trackRegions(samples, options(6, { target: "watermarks" }))).toMatchObject([
      { kind: "watermark", startSeconds: 0, endSeconds: 6 }
    ])
  })

  it("keeps only text inside the region of interest, cutting boxes that cross its edge", () => {
    const crossing = box(100, 380, 120, 40)
    const samples = sampled(6, (t, i) => [handle(i), CAPTIONS[Math.floor(t / 2)]!, ...(t < 2 ? [crossing] : [])])
    const lowerHalf = { x: 0, y: 400, width: W, height: 240 }
    const regions = trackRegions(samples, options(6, { region: lowerHalf }))
    expect(regions).toMatchObject([
      // 400..420 once cut, then padded (padding may reach past the region: the fill needs clean pixels around the text)
      { kind: "caption", box: { x: 92, y: 392, width: 136, height: 36 }, startSeconds: 0, endSeconds: 2.25 },
      { kind: "caption", box: { x: 8, y: 428, width: 342, height: 46 }, startSeconds: 0, endSeconds: 6 }
    ])
    const nothingThere = trackRegions(samples, options(6, { region: { x: 0, y: 200, width: W, height: 100 } }))
    expect(nothingThere).toEqual([])
  })

  it("keeps boxes 2 px inside the frame, on even pixels, even when the detector's boxes run off it", () => {
    const odd = { width: 361, height: 641 }
    const samples = sampled(4, () => [box(-6, -3, 80, 30), box(300, 600, 80, 60), box(0, 300, 361, 30)])
    const regions = trackRegions(samples, options(4, odd))
    expect(regions.map((r) => r.box)).toEqual([
      { x: 2, y: 2, width: 80, height: 34 },
      { x: 2, y: 292, width: 356, height: 46 },
      // 300..361 x 600..641 once cut to the frame; 41 px high, so padded by 10
      { x: 290, y: 590, width: 68, height: 48 }
    ])
  })

  it("drops a small, doubtful box seen on one sample only, and keeps confident or large ones", () => {
    const speck = box(200, 100, 30, 20, 0.85)
    const sureSpeck = box(200, 300, 30, 20, 0.97)
    const flash = box(40, 500, 280, 40, 0.85)
    const samples = sampled(4, (_, i) => (i === 3 ? [speck, sureSpeck, flash] : []))
    const regions = trackRegions(samples, options(4))
    expect(regions.map((r) => r.box.y)).toEqual([292, 490])
    // the same speck seen twice in a row is kept
    const twice = sampled(4, (_, i) => (i === 3 || i === 4 ? [speck] : []))
    expect(trackRegions(twice, options(4))).toMatchObject([{ kind: "caption", startSeconds: 1.25, endSeconds: 2.75 }])
  })

  it("merges regions of one kind whose padded boxes and spans overlap, and keeps apart those that do not touch", () => {
    // a caption line the detector splits into two words, 6 px apart: one region after padding
    const words = sampled(4, (t) => (t > 1 && t < 3 ? [box(60, 437, 100, 28), box(166, 437, 120, 28)] : []))
    expect(trackRegions(words, options(4)).map((r) => r.box)).toEqual([{ x: 52, y: 428, width: 242, height: 46 }])
    // two lines far apart stay two regions
    const lines = sampled(4, (t) => (t > 1 && t < 3 ? [box(60, 200, 100, 28), box(60, 437, 100, 28)] : []))
    expect(trackRegions(lines, options(4))).toHaveLength(2)
  })

  it("finds nothing in no samples or empty ones", () => {
    expect(trackRegions([], options(4))).toEqual([])
    expect(trackRegions(sampled(4, () => []), options(4))).toEqual([])
  })

  it("whatever the boxes, regions lie inside the frame's margin on even pixels and within the video's length", () => {
    const anyBox = fc.record({
      x: fc.integer({ min: -50, max: W + 20 }),
      y: fc.integer({ min: -50, max: H + 20 }),
      width: fc.integer({ min: 0, max: 400 }),
      height: fc.integer({ min: 0, max: 120 }),
      score: fc.double({ min: 0.5, max: 1, noNaN: true })
    })
    fc.assert(
      fc.property(
        fc.array(fc.array(anyBox, { maxLength: 4 }), { minLength: 1, maxLength: 16 }),
        fc.constantFrom<TrackOptions["target"]>("all", "captions", "watermarks"),
        (boxes, target) => {
          const samples = boxes.map((b, i) => ({ atSeconds: (i + 0.5) / PER_SECOND, boxes: b }))
          const duration = boxes.length / PER_SECOND
          for (const r of trackRegions(samples, options(duration, { target }))) {
            expect(r.box.x).toBeGreaterThanOrEqual(2)
            expect(r.box.y).toBeGreaterThanOrEqual(2)
            expect(r.box.x + r.box.width).toBeLessThanOrEqual(W - 2)
            expect(r.box.y + r.box.height).toBeLessThanOrEqual(H - 2)
            expect([r.box.x, r.box.y, r.box.width, r.box.height].every((v) => v % 2 === 0)).toBe(true)
            expect(r.box.width).toBeGreaterThan(0)
            expect(r.startSeconds).toBeGreaterThanOrEqual(0)
            expect(r.endSeconds).toBeLessThanOrEqual(duration)
            expect(r.startSeconds).toBeLessThanOrEqual(r.endSeconds)
            if (target !== "all") expect(r.kind).toBe(target === "captions" ? "caption" : "watermark")
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe("wipeableBox", () => {
  it("keeps a box 2 px inside the frame on even pixels, taking in all of it, and drops one outside", () => {
    expect(wipeableBox({ x: 0, y: 5, width: 11, height: 9 }, 360, 640)).toEqual({ x: 2, y: 4, width: 10, height: 10 })
    expect(wipeableBox({ x: 350, y: 630, width: 20, height: 20 }, 360, 640)).toEqual({ x: 350, y: 630, width: 8, height: 8 })
    expect(wipeableBox({ x: 359, y: 100, width: 10, height: 10 }, 360, 640)).toBeNull()
  })
})
