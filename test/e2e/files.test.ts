// Files: pictures and clips uploaded by URL or multipart, told apart by content, listed per workspace,
// free of credits.
import { Effect } from "effect"
import { execFile } from "node:child_process"
import { readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ledger } from "../../domain/ports/ledger.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { call, serveFiles } from "../support/http-client.ts"

const run = promisify(execFile)
const ffmpeg = (...args: Array<string>) => run("ffmpeg", ["-nostdin", "-y", "-v", "error", ...args])

let app: TestApp
let files: Awaited<ReturnType<typeof serveFiles>>
const media = { png: "", gif: "", mp4: "", text: "" }

beforeAll(async () => {
  app = await startApp({ worker: false })
  media.png = join(app.dataDir, "cover.png")
  media.gif = join(app.dataDir, "loop.gif")
  media.mp4 = join(app.dataDir, "clip.mp4")
  media.text = join(app.dataDir, "notes.png")
  await ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240", "-frames:v", "1", media.png)
  await ffmpeg("-f", "lavfi", "-i", "testsrc2=s=160x120:r=10", "-t", "1", media.gif)
  await ffmpeg("-f", "lavfi", "-i", "testsrc2=s=360x640:r=30", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", media.mp4)
  await writeFile(media.text, "not a picture at all, just text with a .png name")
  files = await serveFiles({
    "clip.mp4": { path: media.mp4, contentType: "video/mp4" },
    "page.html": { path: media.text, contentType: "text/html" }
  })
})

afterAll(async () => {
  await files?.close()
  await app?.close()
})

const multipart = async (path: string, name: string, type: string) => {
  const form = new FormData()
  form.append("file", new Blob([await readFile(path)], { type }), name)
  return form
}

describe("files", () => {
  it("stores pictures, gifs and clips by multipart or URL, tells them apart by content, and charges nothing", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 50 })
    // Named .jpg and sent as text/plain: the bytes say PNG.
    const png = await call(app.baseUrl, "/v1/files", { token, form: await multipart(media.png, "cover.jpg", "text/plain") })
    expect(png.status).toBe(200)
    expect(png.body).toMatchObject({ kind: "image", contentType: "image/png", width: 320, height: 240 })
    expect(png.body.duration).toBeUndefined()
    const served = await fetch(png.body.url)
    expect(Buffer.from(await served.arrayBuffer()).equals(await readFile(media.png))).toBe(true)

    const gif = await call(app.baseUrl, "/v1/files", { token, form: await multipart(media.gif, "loop.gif", "image/gif") })
    expect(gif.body).toMatchObject({ kind: "gif", contentType: "image/gif", width: 160, height: 120 })

    const clip = await call(app.baseUrl, "/v1/files", { token, json: { url: files.url("clip.mp4") } })
    expect(clip.status).toBe(200)
    expect(clip.body).toMatchObject({ kind: "video", contentType: "video/mp4", width: 360, height: 640, name: "clip.mp4" })
    expect(clip.body.duration).toBeCloseTo(2, 1)

    const listed = await call(app.baseUrl, "/v1/files", { token })
    expect(listed.body.data.map((f: { key: string }) => f.key)).toEqual([clip.body.key, gif.body.key, png.body.key])
    const other = await app.createWorkspace()
    expect((await call(app.baseUrl, "/v1/files", { token: other.token })).body.data).toEqual([])
    expect(await app.runtime.runPromise(Effect.flatMap(Ledger, (l) => l.balance(workspaceId)))).toBe(50)
  })

  it("refuses what is not a picture or clip, naming where it came from, and stores nothing", async () => {
    const { token } = await app.createWorkspace()
    const text = await call(app.baseUrl, "/v1/files", { token, form: await multipart(media.text, "notes.png", "image/png") })
    expect(text.status).toBe(400)
    expect(text.body.error.details.field).toBe("file")
    const page = await call(app.baseUrl, "/v1/files", { token, json: { url: files.url("page.html") } })
    expect(page.status).toBe(400)
    expect(page.body.error.details.field).toBe("url")
    const both = new FormData()
    both.append("file", new Blob([await readFile(media.png)]), "a.png")
    both.append("url", files.url("clip.mp4"))
    expect((await call(app.baseUrl, "/v1/files", { token, form: both })).status).toBe(400)
    expect((await call(app.baseUrl, "/v1/files", { token })).body.data).toEqual([])
  })
})
