// Caption removal end to end: a clip with a caption that changes every 2 s and a static watermark,
// over a smooth and over a textured background, comes back with no text found on at least 95% of
// sampled frames; on the smooth background the wiped regions are close to the clean source and the
// rest of the picture is unchanged. A source that is not a video fails, is refunded, and sends
// caption_removal.failed once with the refund in its body.
import { execFile } from "node:child_process"
import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PixelBox } from "../../domain/text-regions.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { psnr, readFrame, within } from "../support/clips.ts"
import { call, serveFiles, waitForRemoval } from "../support/http-client.ts"
import { download, probeVideo } from "../support/media-checks.ts"
import { startHttpsReceiver, type HttpsReceiver } from "../support/https-receiver.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])

const W = 540
const H = 960
const SECONDS = 6
const CAPTIONS = ["HELLO THERE", "THIS ONE IS LONGER", "SHORT ONE"]

let app: TestApp
let dir: string
let files: Awaited<ReturnType<typeof serveFiles>>
let receiver: HttpsReceiver

/**
 * Still backgrounds: geq draws the one frame (per pixel, slow) and loop repeats it, which gives the same
 * frames as drawing every one of them.
 */
const still = (geq: string) => `nullsrc=s=${W}x${H}:r=30,trim=end_frame=1,${geq},loop=loop=-1:size=1`
const BACKGROUNDS = {
  smooth: still("geq=r='40+X*150/W':g='60+Y*120/H':b='150'"),
  textured: still("geq=r='128+90*sin(X/6)*cos(Y/9)':g='110+80*sin(Y/5)':b='128+70*cos((X+Y)/7)'")
} as const

/** The clip with its burned-in text, and the same clip clean. */
const makeClips = async (name: keyof typeof BACKGROUNDS) => {
  const captions = CAPTIONS.map((text, i) =>
    `drawtext=font='DejaVu Sans':fontsize=40:fontcolor=white:borderw=4:bordercolor=black:text='${text}':x=(w-text_w)/2:y=h*0.78:enable='between(t,${i * 2},${i * 2 + 2})'`
  )
  const watermark = "drawtext=font='DejaVu Sans':fontsize=30:fontcolor=white@0.9:text='@mywatermark':x=24:y=36"
  const make = async (output: string, text: boolean) =>
    ffmpeg(
      "-f", "lavfi", "-i", BACKGROUNDS[name],
      "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
      "-t", String(SECONDS),
      "-vf", [...(text ? [...captions, watermark] : []), "format=yuv420p"].join(","),
      "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-c:a", "aac", "-shortest", output
    )
  const texted = join(dir, `${name}.mp4`)
  const clean = join(dir, `${name}-clean.mp4`)
  await Promise.all([make(texted, true), make(clean, false)])
  return { texted, clean }
}

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "removal-e2e-"))
  const smooth = await makeClips("smooth")
  const textured = await makeClips("textured")
  const notVideo = join(dir, "notes.mp4")
  await writeFile(notVideo, "not a video at all ".repeat(100))
  files = await serveFiles({
    "smooth.mp4": { path: smooth.texted, contentType: "video/mp4" },
    "smooth-clean.mp4": { path: smooth.clean, contentType: "video/mp4" },
    "textured.mp4": { path: textured.texted, contentType: "video/mp4" },
    "notes.mp4": { path: notVideo, contentType: "video/mp4" }
  })
  receiver = await startHttpsReceiver()
}, 120_000)

afterAll(async () => {
  await receiver?.close()
  await files?.close()
  await app?.close()
})

describe("caption removal", () => {
  it("wipes a changing caption and a static watermark on a smooth background: clean inside, unchanged outside", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const hook = `${receiver.url}/removals`
    const created = await call(app.baseUrl, "/v1/caption-remover", { token, json: { url: files.url("smooth.mp4"), webhookUrl: hook } })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ status: "processing" })
    const removal = await waitForRemoval(app.baseUrl, token, created.body.id)
    expect(removal).toMatchObject({ status: "completed", step: "completed", refunded: false, width: W, height: H })
    const kinds = (removal.regions as ReadonlyArray<{ kind: string }>).map((r) => r.kind)
    expect(kinds).toContain("watermark")
    expect(kinds).toContain("caption")
    expect(removal.textRemainingShare).toBeLessThanOrEqual(0.05)
    expect(removal.creditsCharged).toBe(2 + 8)

    const cleaned = await download(removal.videoUrl, dir, "smooth-cleaned.mp4")
    const source = join(dir, "smooth.mp4")
    const frameFacts = async (path: string) => {
      const { width, height, frames, hasAudio } = await probeVideo(path)
      return { width, height, frames, hasAudio }
    }
    expect(await frameFacts(cleaned)).toEqual(await frameFacts(source))

    const regions = removal.regions as ReadonlyArray<{ box: PixelBox; startSeconds: number; endSeconds: number }>
    for (const t of [1, 3, 5]) {
      const [out, clean, input] = await Promise.all([
        readFrame(cleaned, t, W, H),
        readFrame(join(dir, "smooth-clean.mp4"), t, W, H),
        readFrame(source, t, W, H)
      ])
      const present = regions.filter((r) => t >= r.startSeconds && t <= r.endSeconds)
      expect(present.length).toBeGreaterThan(0)
      for (const region of present) expect(psnr(out, clean, within(region.box))).toBeGreaterThanOrEqual(30)
      const outside = (x: number, y: number) => !regions.some((r) => within(r.box)(x, y))
      expect(psnr(out, input, outside)).toBeGreaterThanOrEqual(40)
    }

    // The completed event carries exactly what GET returns, under the removal's id.
    const events = receiver.requests.filter((r) => r.headers["x-service-job-id"] === created.body.id)
    expect(events).toHaveLength(1)
    expect(events[0]!.headers["x-service-event"]).toBe("caption_removal.completed")
    expect(events[0]!.headers["x-service-video-id"]).toBeUndefined()
    expect(JSON.parse(events[0]!.body)).toEqual({ event: "caption_removal.completed", captionRemoval: removal })
  }, 240_000)

  it("leaves no text found on at least 95% of sampled frames over a textured background", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/caption-remover", { token, json: { url: files.url("textured.mp4") } })
    const removal = await waitForRemoval(app.baseUrl, token, created.body.id)
    expect(removal.status).toBe("completed")
    expect((removal.regions as ReadonlyArray<unknown>).length).toBeGreaterThan(0)
    expect(removal.textRemainingShare).toBeLessThanOrEqual(0.05)
  }, 240_000)

  it("completes a video with no text unchanged, charging only the analysis", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/caption-remover", { token, json: { url: files.url("smooth-clean.mp4") } })
    const removal = await waitForRemoval(app.baseUrl, token, created.body.id)
    expect(removal).toMatchObject({ status: "completed", regions: [], creditsCharged: 2 })
    expect(removal.videoUrl).toEqual(expect.any(String))
  }, 240_000)

  it("fails a source that is not a video, refunds it, and sends caption_removal.failed once with the refund", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/caption-remover", {
      token,
      json: { url: files.url("notes.mp4"), webhookUrl: `${receiver.url}/failed` }
    })
    const removal = await waitForRemoval(app.baseUrl, token, created.body.id)
    expect(removal).toMatchObject({ status: "failed", refunded: true, refundedCredits: 2, creditsCharged: 2 })
    expect(removal.error).toEqual(expect.any(String))
    const workspace = await call(app.baseUrl, "/v1/workspace", { token })
    expect(workspace.body.credits).toBe(100)
    const deadline = Date.now() + 30_000
    while (!receiver.requests.some((r) => r.headers["x-service-job-id"] === created.body.id) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100))
    }
    await new Promise((r) => setTimeout(r, 500))
    const events = receiver.requests.filter((r) => r.headers["x-service-job-id"] === created.body.id)
    expect(events).toHaveLength(1)
    expect(events[0]!.headers["x-service-event"]).toBe("caption_removal.failed")
    const body = JSON.parse(events[0]!.body)
    expect(body.captionRemoval).toMatchObject({ status: "failed", refunded: true, refundedCredits: 2 })
  }, 120_000)

  it("refuses a free plan, a short balance and another workspace's reads, creating nothing", async () => {
    const free = await app.createWorkspace({ plan: "free", credits: 100 })
    expect((await call(app.baseUrl, "/v1/caption-remover", { token: free.token, json: { url: files.url("smooth.mp4") } })).status).toBe(403)
    const poor = await app.createWorkspace({ credits: 1 })
    expect((await call(app.baseUrl, "/v1/caption-remover", { token: poor.token, json: { url: files.url("smooth.mp4") } })).status).toBe(402)
    const owner = await app.createWorkspace({ credits: 100 })
    const other = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/caption-remover", { token: owner.token, json: { url: files.url("notes.mp4") } })
    expect((await call(app.baseUrl, `/v1/caption-remover/${created.body.id}`, { token: other.token })).status).toBe(404)
    const bad = await call(app.baseUrl, "/v1/caption-remover", { token: owner.token, json: { url: files.url("smooth.mp4"), target: "logos" } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.field).toBe("target")
  })
})
