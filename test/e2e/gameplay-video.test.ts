// Gameplay videos end to end: narration over built-in or uploaded footage, big captions in the middle,
// an optional split screen with an uploaded picture on top.
import { execFile } from "node:child_process"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../support/app.ts"
import { type Frame, readFrame } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])
const SCRIPT = "Nobody expected the quiet kid to win. But every day he practised for one more hour."

let app: TestApp

beforeAll(async () => {
  app = await startApp()
})

afterAll(async () => {
  await app?.close()
})

const download = async (url: string, name: string): Promise<string> => {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  const path = join(app.dataDir, name)
  await writeFile(path, Buffer.from(await response.arrayBuffer()))
  return path
}

const probe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path])
  const facts = JSON.parse(stdout) as { format: { duration: string }; streams: Array<{ codec_type: string; width?: number; height?: number; avg_frame_rate?: string }> }
  const video = facts.streams.find((s) => s.codec_type === "video")!
  return { duration: Number(facts.format.duration), width: video.width, height: video.height, frameRate: video.avg_frame_rate, hasAudio: facts.streams.some((s) => s.codec_type === "audio") }
}

/** Rows [from, to) of a frame: the share of pixels that pass `test`. */
const share = (frame: Frame, from: number, to: number, test: (r: number, g: number, b: number) => boolean): number => {
  let count = 0
  for (let i = from * frame.width * 3; i < to * frame.width * 3; i += 3) if (test(frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!)) count++
  return count / ((to - from) * frame.width)
}
const notGreen = (r: number, g: number, b: number) => !(r < 40 && g > 215 && b < 40)

const upload = async (token: string, path: string, name: string) => {
  const form = new FormData()
  form.append("file", new Blob([await readFile(path)]), name)
  const answer = await call(app.baseUrl, "/v1/files", { token, form })
  expect(answer.status).toBe(200)
  return answer.body.key as string
}

describe("gameplay videos", () => {
  it("narrates over built-in footage with big captions in the middle of the frame", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const created = await call(app.baseUrl, "/v1/gameplay-videos", {
      token,
      json: { script: SCRIPT, footage: "blocks", render: { format: "greenscreen" } }
    })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video).toMatchObject({ status: "completed", kind: "gameplay", width: 1080, height: 1920 })
    const mp4 = await download(video.videoUrl, "gameplay-green.mp4")
    const facts = await probe(mp4)
    expect(facts).toMatchObject({ width: 1080, height: 1920, frameRate: "30/1", hasAudio: true })
    expect(Math.abs(facts.duration - video.duration)).toBeLessThan(0.5)
    // On greenscreen only the captions are drawn: they sit in the middle band, not at the top or bottom.
    const frame = await readFrame(mp4, 1.2, 1080, 1920)
    expect(share(frame, 720, 1200, notGreen)).toBeGreaterThan(0.01)
    expect(share(frame, 0, 480, notGreen)).toBeLessThan(0.001)
    expect(share(frame, 1440, 1920, notGreen)).toBeLessThan(0.001)
  }, 180_000)

  it("draws built-in footage while it renders: a game moving under the captions, made in no step of its own", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const created = await call(app.baseUrl, "/v1/gameplay-videos", { token, json: { script: SCRIPT, footage: "runner", render: {} } })
    expect(created.status).toBe(200)
    const steps = new Set<string>()
    const video = await waitForVideo(app.baseUrl, token, created.body.id, (v) => {
      steps.add(v.step)
      return v.status !== "processing"
    })
    expect(video).toMatchObject({ status: "completed", kind: "gameplay" })
    expect(steps.has("making_footage")).toBe(false)
    const mp4 = await download(video.videoUrl, "gameplay-runner.mp4")
    expect(await probe(mp4)).toMatchObject({ width: 1080, height: 1920, frameRate: "30/1", hasAudio: true })
    const [early, late] = await Promise.all([readFrame(mp4, 0.5, 1080, 1920), readFrame(mp4, 1.5, 1080, 1920)])
    // Above the captions: the game fills the frame (not one colour), and it moves.
    const band = (frame: Frame) => frame.rgb.subarray(0, 600 * 1080 * 3)
    const colours = new Set<number>()
    const top = band(early)
    for (let i = 0; i < top.length; i += 3 * 97) colours.add((top[i]! >> 4) * 256 + (top[i + 1]! >> 4) * 16 + (top[i + 2]! >> 4))
    expect(colours.size).toBeGreaterThan(8)
    let moved = 0
    const after = band(late)
    for (let i = 0; i < top.length; i++) moved += Math.abs(top[i]! - after[i]!)
    expect(moved / top.length).toBeGreaterThan(1)
  }, 180_000)

  it("uses an uploaded clip as footage under an uploaded picture in split screen, rendered later", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const red = join(app.dataDir, "red.png")
    const clip = join(app.dataDir, "blue-clip.mp4")
    await ffmpeg("-f", "lavfi", "-i", "color=c=red:s=400x300", "-frames:v", "1", red)
    await ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=360x640:r=30", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip)
    const top = await upload(token, red, "red.png")
    const footage = await upload(token, clip, "blue.mp4")
    const created = await call(app.baseUrl, "/v1/gameplay-videos", { token, json: { script: SCRIPT, footage, splitScreen: { fileKey: top } } })
    expect(created.status).toBe(200)
    const generated = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(generated).toMatchObject({ status: "completed" })
    expect(generated.videoUrl).toBeUndefined()
    expect((await call(app.baseUrl, `/v1/videos/${created.body.id}/render`, { token, json: {} })).status).toBe(200)
    const rendered = await waitForVideo(app.baseUrl, token, created.body.id)
    const mp4 = await download(rendered.videoUrl, "gameplay-split.mp4")
    const frame = await readFrame(mp4, 2, 1080, 1920)
    expect(share(frame, 0, 600, (r, g, b) => r > 180 && g < 80 && b < 80)).toBeGreaterThan(0.9)
    expect(share(frame, 1400, 1920, (r, g, b) => b > 180 && r < 80 && g < 80)).toBeGreaterThan(0.9)
  }, 180_000)

  it("refuses footage and split screens that are not this workspace's fitting uploads, by field", async () => {
    const { token } = await app.createWorkspace()
    const still = join(app.dataDir, "still.png")
    await ffmpeg("-f", "lavfi", "-i", "color=c=white:s=64x64", "-frames:v", "1", still)
    const picture = await upload(token, still, "still.png")
    const unknown = await call(app.baseUrl, "/v1/gameplay-videos", { token, json: { script: SCRIPT, footage: "chess" } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.details.field).toBe("footage")
    const stillFootage = await call(app.baseUrl, "/v1/gameplay-videos", { token, json: { script: SCRIPT, footage: picture } })
    expect(stillFootage.body.error.details.field).toBe("footage")
    const missingTop = await call(app.baseUrl, "/v1/gameplay-videos", { token, json: { script: SCRIPT, splitScreen: { fileKey: "nope" } } })
    expect(missingTop.body.error.details.field).toBe("splitScreen.fileKey")
  })
})
