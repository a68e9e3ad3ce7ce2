// AI videos end to end: a script becomes narration with word times, scenes, one drawn picture per
// scene and captions; without `render` it completes as an editable project, and the render operation
// exports it later; with `render` it completes with the mp4.
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { renderCredits, speechCredits } from "../../domain/pricing.ts"
import { NARRATION_TAIL_SECONDS } from "../../domain/timeline.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { readFrame } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"

const run = promisify(execFile)
const SCRIPT = "The ocean is calm at sunrise. Birds fly over the quiet beach."

let app: TestApp
let dir: string

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "ai-video-e2e-"))
})

afterAll(async () => {
  await app?.close()
  await rm(dir, { recursive: true, force: true })
})

const balanceOf = (workspaceId: string) => app.runtime.runPromise(Effect.flatMap(Ledger, (l) => l.balance(workspaceId)))

const download = async (url: string, name: string): Promise<string> => {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  const path = join(dir, name)
  await writeFile(path, Buffer.from(await response.arrayBuffer()))
  return path
}

const probe = async (path: string) => {
  const { stdout } = await run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path])
  const facts = JSON.parse(stdout) as {
    format: { duration: string }
    streams: Array<{ codec_type: string; width?: number; height?: number; avg_frame_rate?: string }>
  }
  const video = facts.streams.find((s) => s.codec_type === "video")!
  return {
    duration: Number(facts.format.duration),
    width: video.width,
    height: video.height,
    frameRate: video.avg_frame_rate,
    hasAudio: facts.streams.some((s) => s.codec_type === "audio")
  }
}

/** Share of a frame's pixels that are not the greenscreen's pure green. */
const notGreen = (frame: { rgb: Buffer }): number => {
  let count = 0
  for (let i = 0; i < frame.rgb.length; i += 3) {
    const [r, g, b] = [frame.rgb[i]!, frame.rgb[i + 1]!, frame.rgb[i + 2]!]
    if (!(r < 40 && g > 215 && b < 40)) count++
  }
  return count / (frame.rgb.length / 3)
}

describe("AI videos", () => {
  it("without render completes as an editable project, charged for speech only; the render operation exports it", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 1000 })
    const created = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: SCRIPT, aspectRatio: "1:1" } })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ status: "processing", render: false })

    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video).toMatchObject({ status: "completed", step: "completed", kind: "ai", width: 1080, height: 1080 })
    expect(video.videoUrl).toBeUndefined()
    const project = await app.runtime.runPromise(Effect.flatMap(VideoStore, (s) => s.getProject(created.body.id)))
    expect(project._tag).toBe("Some")
    const visuals = project._tag === "Some" ? project.value.visuals : undefined
    const scenes = visuals?._tag === "Illustrated" ? visuals.scenes : []
    expect(scenes.length).toBeGreaterThanOrEqual(1)
    expect(scenes.every((s) => s.imageFileId !== null)).toBe(true)
    expect(scenes.reduce((sum, s) => sum + s.durationSeconds, 0)).toBeCloseTo(video.duration, 2)
    const speech = speechCredits(video.duration - NARRATION_TAIL_SECONDS)
    expect(await balanceOf(workspaceId)).toBe(1000 - speech)

    const captions = await call(app.baseUrl, `/v1/videos/${created.body.id}/captions`, { token })
    expect(captions.status).toBe(200)
    expect(JSON.stringify(captions.body)).toContain("sunrise")
    const reframed = await call(app.baseUrl, `/v1/videos/${created.body.id}/captions`, { token, method: "PATCH", json: { reframe: { aspectRatio: "9:16", mode: "center" } } })
    expect([reframed.status, reframed.body.error?.details?.field]).toEqual([400, "reframe"])

    const exported = await call(app.baseUrl, `/v1/videos/${created.body.id}/render`, { token, json: {} })
    expect(exported.status).toBe(200)
    const rendered = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(rendered).toMatchObject({ status: "completed", export: { status: "completed" } })
    const facts = await probe(await download(rendered.videoUrl, "v2.mp4"))
    expect(facts).toMatchObject({ width: 1080, height: 1080, frameRate: "30/1", hasAudio: true })
    expect(Math.abs(facts.duration - video.duration)).toBeLessThan(0.5)
    expect(await balanceOf(workspaceId)).toBe(1000 - speech - renderCredits(video.duration, 30))
  }, 180_000)

  it("V3 draws in the chosen art style and, with render, completes with the mp4; captions follow the words", async () => {
    const { token } = await app.createWorkspace({ credits: 1000 })
    const styles = await call(app.baseUrl, "/v1/art-styles", { token })
    expect(styles.body.data.length).toBeGreaterThanOrEqual(8)
    const preview = await fetch(styles.body.data[0].preview)
    expect(preview.headers.get("content-type")).toBe("image/png")
    expect((await preview.arrayBuffer()).byteLength).toBeGreaterThan(10_000)
    expect((await fetch(`${app.baseUrl}/art-styles/cubism/preview.png`)).status).toBe(404)
    const created = await call(app.baseUrl, "/v1/ai-videos/v3", {
      token,
      json: { script: SCRIPT, artStyleId: "pixel-art", aspectRatio: "1:1", render: { format: "greenscreen" } }
    })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video).toMatchObject({ status: "completed", render: true })
    const mp4 = await download(video.videoUrl, "v3.mp4")
    const facts = await probe(mp4)
    expect(Math.abs(facts.duration - video.duration)).toBeLessThan(0.5)

    // On greenscreen only the captions are drawn: there is text while words are spoken, and it changes.
    const words = (await call(app.baseUrl, `/v1/videos/${created.body.id}/captions`, { token })).body
    const wordsList = JSON.stringify(words)
    expect(wordsList).toContain("Birds")
    const first = await readFrame(mp4, 0.9, 1080, 1080)
    const later = await readFrame(mp4, facts.duration - 1, 1080, 1080)
    expect(notGreen(first)).toBeGreaterThan(0.002)
    expect(notGreen(later)).toBeGreaterThan(0.002)
    expect(first.rgb.equals(later.rgb)).toBe(false)
  }, 180_000)

  it("refuses bad fields by name, and render on a plan that cannot render, before creating anything", async () => {
    const { token } = await app.createWorkspace({ plan: "free" })
    const style = await call(app.baseUrl, "/v1/ai-videos/v3", { token, json: { script: SCRIPT, artStyleId: "cubism" } })
    expect(style.status).toBe(400)
    expect(style.body.error.details.field).toBe("artStyleId")
    const voice = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: SCRIPT, voiceId: "nobody" } })
    expect(voice.body.error.details.field).toBe("voiceId")
    const empty = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: "" } })
    expect(empty.status).toBe(400)
    const emoji = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: "🌊🐦".repeat(200) } })
    expect([emoji.status, emoji.body.error.details.field]).toEqual([400, "script"])
    const aspect = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: SCRIPT, aspectRatio: "4:3" } })
    expect(aspect.status).toBe(400)
    const forbidden = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: SCRIPT, render: {} } })
    expect(forbidden.status).toBe(403)
    const listed = await call(app.baseUrl, "/v1/videos", { token })
    expect(listed.body.data).toEqual([])
  })

  it("fails, charging nothing, when the voice can say none of the script", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: "海は日の出に穏やかです。", voiceId: "festival-slt" } })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.status).toBe("failed")
    expect(video.error).toContain("The voice festival-slt could say none of the script")
    expect(await balanceOf(workspaceId)).toBe(100)
  })
})
