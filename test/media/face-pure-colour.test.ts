// The tiny face detector scores pure hues (colour bars, flat motion graphics) as faces, up to 1.00: the
// finder drops a found box that is mostly pure colour (adapters/media/face-api-finder.ts). The rule on
// painted pixels, then the real detector on a head over ffmpeg's colour bars.
import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { FaceApiFinderLive, mostlyPureColour } from "../../adapters/media/face-api-finder.ts"
import { FaceFinder } from "../../domain/ports/face-finder.ts"

const run = promisify(execFile)
const require = createRequire(import.meta.url)
const DEMO = join(dirname(require.resolve("@vladmandic/face-api/package.json")), "demo")

const [W, H] = [40, 20]
/** A W x H picture, every pixel `rgb`, with the right half `right` when given. */
const picture = (rgb: readonly [number, number, number], right?: readonly [number, number, number]) => {
  const pixels = new Uint8Array(W * H * 3)
  for (let i = 0; i < W * H; i++) pixels.set(right !== undefined && i % W >= W / 2 ? right : rgb, i * 3)
  return pixels
}
const box = { x: 0, y: 0, width: W, height: H, score: 1 }

describe("mostlyPureColour", () => {
  it("holds for colour bars: saturated bright hues", () => {
    expect(mostlyPureColour(picture([255, 0, 255]), W, H, box)).toBe(true)
    expect(mostlyPureColour(picture([0, 230, 230], [200, 20, 10]), W, H, box)).toBe(true)
  })

  it("fails for skin, grey (black and white video) and dim pixels, and for a box half pure colour", () => {
    expect(mostlyPureColour(picture([224, 172, 140]), W, H, box)).toBe(false)
    expect(mostlyPureColour(picture([120, 60, 40]), W, H, box)).toBe(false)
    expect(mostlyPureColour(picture([128, 128, 128]), W, H, box)).toBe(false)
    expect(mostlyPureColour(picture([40, 0, 0]), W, H, box)).toBe(false)
    expect(mostlyPureColour(picture([224, 172, 140], [255, 0, 255]), W, H, box)).toBe(false)
  })

  it("counts only the box's pixels inside the picture", () => {
    const half = picture([224, 172, 140], [255, 0, 255])
    expect(mostlyPureColour(half, W, H, { ...box, x: W / 2, y: -10, width: W, height: H * 2 })).toBe(true)
    expect(mostlyPureColour(half, W, H, { ...box, x: -W, width: W / 2 })).toBe(true)
  })
})

const SOURCE = { width: 960, height: 540, durationSeconds: 8 }
/** Where the head is placed, in the source's pixels. */
const HEAD = { x: 600, y: 120, height: 220 }

let dir = ""
let talk = ""

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "face-pure-colour-"))
  talk = join(dir, "bars.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `testsrc2=s=${SOURCE.width}x${SOURCE.height}:r=30`, "-loop", "1", "-i", join(DEMO, "sample3.jpg"),
    "-filter_complex", `[1:v]crop=330:440:520:240,scale=-2:${HEAD.height}[head];[0:v][head]overlay=x=${HEAD.x}:y=${HEAD.y}[v]`,
    "-map", "[v]", "-t", String(SOURCE.durationSeconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", talk
  ])
})
afterAll(() => rm(dir, { recursive: true, force: true }))

layer(FaceApiFinderLive)("faces over colour bars", (test) => {
  test.effect("finds the head and nothing in the bars around it, which the detector scores as faces", () =>
    Effect.gen(function*() {
      const { samples } = yield* (yield* FaceFinder).find({ input: talk, ...SOURCE })
      const found = samples.flatMap((s) => s.faces)
      expect(found.length).toBeGreaterThan(0)
      const headWidth = (330 / 440) * HEAD.height
      for (const face of found) {
        const [x, y] = [face.x + face.width / 2, face.y + face.height / 2]
        expect(x, JSON.stringify(face)).toBeGreaterThan(HEAD.x)
        expect(x, JSON.stringify(face)).toBeLessThan(HEAD.x + headWidth)
        expect(y, JSON.stringify(face)).toBeGreaterThan(HEAD.y)
        expect(y, JSON.stringify(face)).toBeLessThan(HEAD.y + HEAD.height)
      }
    }))
})
