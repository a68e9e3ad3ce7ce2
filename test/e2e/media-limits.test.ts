// Media are bounded by what they cost to decode, not by their size in bytes, over real HTTP: an
// uploaded source or file that is too large in pixels, not a video, or not media at all is a 400
// naming `file` that records and charges nothing; a source at a URL that is too large fails its work
// with the limit in its error, and what was charged is refunded.
import { execFile } from "node:child_process"
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../support/app.ts"
import { call, serveFiles, waitForRemoval, waitForVideo } from "../support/http-client.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])
const X264 = ["-c:v", "libx264", "-preset", "ultrafast", "-crf", "51", "-pix_fmt", "yuv420p"]
const SPOKEN = ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-c:a", "aac", "-shortest"]

/** To the end of the sentence: a refusal is cut at 200 characters, and this one must be read whole. */
const VIDEO_LIMIT = /a video or gif may be at most 4096 pixels on a side and 8\.9 megapixels.*\.$/

let app: TestApp
let dir: string
let files: Awaited<ReturnType<typeof serveFiles>>
const media = { huge: "", wide: "", still: "", random: "", empty: "", mute: "", hugePng: "" }

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "media-limits-"))
  Object.assign(media, {
    huge: join(dir, "huge.mp4"),
    wide: join(dir, "wide.mp4"),
    still: join(dir, "still.png"),
    random: join(dir, "random.mp4"),
    empty: join(dir, "empty.mp4"),
    mute: join(dir, "mute.mp4"),
    hugePng: join(dir, "huge.png")
  })
  // A few KB each, however many pixels they hold: above the decode cap (8192x8192), and under it but
  // above a video's limits (5000x5000).
  await ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=8192x8192:r=1:d=1", ...SPOKEN, ...X264, media.huge)
  await ffmpeg("-f", "lavfi", "-i", "color=c=blue:s=5000x5000:r=1:d=1", ...SPOKEN, ...X264, media.wide)
  await ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", media.still)
  await ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240:r=30:d=1", ...X264, media.mute)
  await ffmpeg("-f", "lavfi", "-i", "color=c=white:s=16000x16000", "-frames:v", "1", "-pix_fmt", "monob", media.hugePng)
  await writeFile(media.random, Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919 + 13) % 256)))
  await writeFile(media.empty, "")
  files = await serveFiles({
    "wide.mp4": { path: media.wide, contentType: "video/mp4" },
    "huge.png": { path: media.hugePng, contentType: "image/png" }
  })
}, 120_000)

afterAll(async () => {
  await files?.close()
  await app?.close()
  if (dir) await rm(dir, { recursive: true, force: true })
})

const upload = async (path: string, name: string) => {
  const form = new FormData()
  form.set("file", new Blob([await readFile(path)]), name)
  return form
}

/** The workspace holds no video and its credit log has nothing past its opening balance. */
const untouched = async (token: string, credits: number) => {
  expect((await call(app.baseUrl, "/v1/videos", { token })).body.data).toEqual([])
  const logs = (await call(app.baseUrl, "/v1/credit-logs", { token })).body.data as Array<{ operation: string }>
  expect(logs.map((log) => log.operation)).toEqual(["opening balance"])
  expect((await call(app.baseUrl, "/v1/workspace", { token })).body.credits).toBe(credits)
}

describe("uploaded sources", () => {
  it("refuses an 8192x8192 clip as a caption video or removal source: 400 naming file, no record, no charge", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    for (const path of ["/v1/caption-videos", "/v1/caption-remover"]) {
      const refused = await call(app.baseUrl, path, { token, form: await upload(media.huge, "huge.mp4") })
      expect(refused.status, path).toBe(400)
      expect(refused.body.error.details.field).toBe("file")
      expect(refused.body.error.message).toMatch(/^file: The picture is 8192x8192 pixels, too large to decode/)
      expect(refused.body.error.message).toMatch(VIDEO_LIMIT)
    }
    await untouched(token, 100)
  })

  it("refuses a 5000x5000 clip by a video's limits, naming them", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const refused = await call(app.baseUrl, "/v1/caption-remover", { token, form: await upload(media.wide, "wide.mp4") })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details.field).toBe("file")
    expect(refused.body.error.message).toMatch(/^file: The source is 5000x5000 pixels; /)
    expect(refused.body.error.message).toMatch(VIDEO_LIMIT)
    await untouched(token, 100)
  })

  it("refuses a png, random bytes or an empty file as a caption video or removal source", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const cases = [
      [media.still, "still.png", /still picture, not a video/],
      [media.random, "random.mp4", /not a media file/],
      [media.empty, "empty.mp4", /not a media file/]
    ] as const
    for (const path of ["/v1/caption-videos", "/v1/caption-remover"]) {
      for (const [file, name, reason] of cases) {
        const refused = await call(app.baseUrl, path, { token, form: await upload(file, name) })
        expect(refused.status, `${name} to ${path}`).toBe(400)
        expect(refused.body.error.details.field).toBe("file")
        expect(refused.body.error.message).toMatch(reason)
      }
    }
    await untouched(token, 100)
  })

  it("refuses a clip without sound as a caption video source, which has nothing to caption", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const refused = await call(app.baseUrl, "/v1/caption-videos", { token, form: await upload(media.mute, "mute.mp4") })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toMatch(/^file: The source has no audio track/)
    await untouched(token, 100)
  })
})

describe("files", () => {
  it("refuses a 16000x16000 png, uploaded or at a URL, naming where it came from, and stores nothing", async () => {
    const { token } = await app.createWorkspace()
    const uploaded = await call(app.baseUrl, "/v1/files", { token, form: await upload(media.hugePng, "huge.png") })
    expect(uploaded.status).toBe(400)
    expect(uploaded.body.error.details.field).toBe("file")
    expect(uploaded.body.error.message).toMatch(/^file: The picture is 16000x16000 pixels, too large to decode: .*, a still image 8192 and 40\. Scale it down\.$/)
    const fetched = await call(app.baseUrl, "/v1/files", { token, json: { url: files.url("huge.png") } })
    expect(fetched.status).toBe(400)
    expect(fetched.body.error.details.field).toBe("url")
    expect((await call(app.baseUrl, "/v1/files", { token })).body.data).toEqual([])
  })

  it("refuses a clip above a video's limits that is within a still image's", async () => {
    const { token } = await app.createWorkspace()
    const refused = await call(app.baseUrl, "/v1/files", { token, form: await upload(media.wide, "wide.mp4") })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toMatch(/^file: The video is 5000x5000 pixels; /)
    expect(refused.body.error.message).toMatch(VIDEO_LIMIT)
  })
})

describe("sources at a URL", () => {
  it("fails a caption removal of a clip too large in pixels, naming the limit, and refunds it", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/caption-remover", { token, json: { url: files.url("wide.mp4") } })
    expect(created.status).toBe(200)
    const removal = await waitForRemoval(app.baseUrl, token, created.body.id)
    expect(removal).toMatchObject({ status: "failed", refunded: true, refundedCredits: 2, creditsCharged: 2 })
    expect(removal.error).toMatch(/^The source is 5000x5000 pixels; /)
    expect(removal.error).toMatch(VIDEO_LIMIT)
    expect((await call(app.baseUrl, "/v1/workspace", { token })).body.credits).toBe(100)
  })

  it("fails a caption video of a clip too large in pixels at probing, naming the limit, charging nothing", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("wide.mp4") } })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video).toMatchObject({ status: "failed", step: "probing" })
    expect(video.error).toMatch(VIDEO_LIMIT)
    expect((await call(app.baseUrl, `/v1/credit-logs?videoId=${created.body.id}`, { token })).body.data).toEqual([])
    expect((await call(app.baseUrl, "/v1/workspace", { token })).body.credits).toBe(100)
  })
})
