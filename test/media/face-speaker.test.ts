// Who speaks, for real: two heads from a photo @vladmandic/face-api ships, side by side over a 960x540
// picture, the smaller one speaking for the first half (its mouth drawn open on some frames and shut on
// others) and the larger one for the second. The real detector measures their mouths, and face mode
// follows the one speaking, not the larger face.
import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, expect, layer } from "@effect/vitest"
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { Effect } from "effect"
import { FaceApiFinderLive } from "../../adapters/media/face-api-finder.ts"
import { FaceFinder } from "../../domain/ports/face-finder.ts"
import { DEAD_ZONE, planFraming, windowAt } from "../../domain/reframe.ts"

const run = promisify(execFile)
const require = createRequire(import.meta.url)
const DEMO = join(dirname(require.resolve("@vladmandic/face-api/package.json")), "demo")
const SOURCE = { width: 960, height: 540, durationSeconds: 20 }
/** Where each head's middle is across the picture. */
const [LEFT, RIGHT] = [250, 700]

let dir = ""
let talk = ""

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "face-speaker-"))
  // One head of a group photo, shut, and the same with its mouth open: a dark opening between the lips
  // (the lips' place in this crop, found by the package's landmark net).
  const head = await loadImage(join(DEMO, "sample3.jpg"))
  const draw = async (open: boolean, name: string) => {
    const canvas = createCanvas(330, 440)
    const ctx = canvas.getContext("2d")
    ctx.drawImage(head, 520, 240, 330, 440, 0, 0, 330, 440)
    if (open) {
      ctx.fillStyle = "#2a0a0a"
      ctx.beginPath()
      ctx.ellipse(148, 304, 28, 21, 0, 0, Math.PI * 2)
      ctx.fill()
    }
    const path = join(dir, name)
    await writeFile(path, canvas.toBuffer("image/png"))
    return path
  }
  const [shut, open] = [await draw(false, "shut.png"), await draw(true, "open.png")]
  // The speaker's mouth is open on some samples and shut on others (sin of an odd multiple of t: no beat
  // with the once-a-second sampling).
  const speaking = (from: number, to: number) => `between(t,${from},${to})*gt(sin(t*5.1),0)`
  const place = (middle: number, height: number) => `x=${middle}-overlay_w/2:y=${(SOURCE.height - height) / 2}`
  talk = join(dir, "talk.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", `color=c=0x4a6a8a:s=${SOURCE.width}x${SOURCE.height}:r=30`,
    "-loop", "1", "-i", shut, "-loop", "1", "-i", open,
    "-filter_complex",
    "[1:v]split[s1][s2];[2:v]split[o1][o2];" +
      "[s1]scale=-2:200[a];[o1]scale=-2:200[ao];[s2]scale=-2:260[b];[o2]scale=-2:260[bo];" +
      `[0:v][a]overlay=${place(LEFT, 200)}[v1];[v1][ao]overlay=${place(LEFT, 200)}:enable='${speaking(0, 10)}'[v2];` +
      `[v2][b]overlay=${place(RIGHT, 260)}[v3];[v3][bo]overlay=${place(RIGHT, 260)}:enable='${speaking(10, 20)}'[v]`,
    "-map", "[v]", "-t", String(SOURCE.durationSeconds), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", talk
  ])
})
afterAll(() => (process.env.KEEP === "1" ? undefined : rm(dir, { recursive: true, force: true })))

layer(FaceApiFinderLive)("the speaker's face", (it) => {
  it.effect("measures the mouths of two faces, and face mode follows the one speaking rather than the larger", () =>
    Effect.gen(function*() {
      const faces = yield* (yield* FaceFinder).find({ input: talk, ...SOURCE })
      const twoShots = faces.samples.filter((s) => s.faces.length === 2)
      expect(twoShots.length).toBeGreaterThanOrEqual(18)
      // Every sample that showed both is measured, mouths and all, the first included.
      expect(twoShots.every((s) => s.faces.every((f) => f.mouth !== undefined))).toBe(true)

      const framing = planFraming({ aspectRatio: "9:16", mode: "face" }, SOURCE, faces)
      const centreAt = (seconds: number) => windowAt(framing.paths[0]!, seconds).x + framing.crop.width / 2
      const near = framing.crop.width * DEAD_ZONE + 20
      for (const t of [0, 2, 5, 8]) expect(Math.abs(centreAt(t) - LEFT), `at ${t} s`).toBeLessThan(near)
      for (const t of [15, 17, 19]) expect(Math.abs(centreAt(t) - RIGHT), `at ${t} s`).toBeLessThan(near)
    }), 120_000)
})
