// Editing a caption project after its captions are timed, over HTTP: PATCH /v1/videos/:id/captions
// (fix and split words, break lines, swap the template, move the block), the refusals that name the
// field, a stale revision, another workspace; the render burns the edits; an mp4 already made stays as
// it was until the next render; editing sends no event. Then the editor's own JSON routes: only a
// signed-in member of the workspace gets in, writes need the session's CSRF token, and an export
// started there sends no event.
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CSRF_HEADER } from "../../adapters/editor/editor-contract.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { bandDifference, makeSpokenClip, readFrame, type SpokenClip } from "../support/clips.ts"
import { FormBrowser } from "../support/form-browser.ts"
import { call, serveFiles, waitForVideo } from "../support/http-client.ts"
import { startHttpsReceiver, type HttpsReceiver } from "../support/https-receiver.ts"
import { download } from "../support/media-checks.ts"

const W = 360
const H = 640
const PASSWORD = "a long enough password"

let app: TestApp
let dir: string
let clip: SpokenClip
let files: Awaited<ReturnType<typeof serveFiles>>
let receiver: HttpsReceiver
let studio: { workspaceId: string; token: string }
let other: { workspaceId: string; token: string }

beforeAll(async () => {
  app = await startApp()
  studio = await app.createWorkspace({ name: "Studio" })
  other = await app.createWorkspace({ name: "Elsewhere" })
  await app.createUser({ email: "editor@example.com", password: PASSWORD, workspaces: [{ workspaceId: studio.workspaceId }] })
  await app.createUser({ email: "stranger@example.com", password: PASSWORD, workspaces: [{ workspaceId: other.workspaceId }] })
  dir = await mkdtemp(join(tmpdir(), "caption-editing-"))
  clip = await makeSpokenClip({ text: "Good morning everyone. Welcome to the harbour tour.", width: W, height: H, fps: 30, silenceBefore: 0.3, silenceAfter: 0.8, dir })
  files = await serveFiles({ "clip.mp4": { path: clip.path, contentType: "video/mp4" } })
  receiver = await startHttpsReceiver()
}, 120_000)

afterAll(async () => {
  await receiver?.close()
  await files?.close()
  await app?.close()
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

/** A caption project of the studio, timed and completed, created with a webhook. */
const project = async (hook: string) => {
  const created = await call(app.baseUrl, "/v1/caption-videos", { token: studio.token, json: { url: files.url("clip.mp4"), webhookUrl: `${receiver.url}/${hook}` } })
  expect(created.status).toBe(200)
  const video = await waitForVideo(app.baseUrl, studio.token, created.body.id)
  expect(video.status).toBe("completed")
  return video
}

const edit = (id: string, json: unknown, token = studio.token) => call(app.baseUrl, `/v1/videos/${id}/captions`, { method: "PATCH", token, json })

const eventsFor = (hook: string) => receiver.requests.filter((r) => r.path.startsWith(`/${hook}`))

/** Share of changed pixels in the top and bottom fifths between a render's frame and the source's. */
const bands = async (mp4: string, t: number) => {
  const [out, source] = await Promise.all([readFrame(mp4, t, W, H), readFrame(clip.path, t, W, H)])
  return {
    top: bandDifference(out, source, { top: 0, bottom: Math.round(H * 0.3) }),
    bottom: bandDifference(out, source, { top: Math.round(H * 0.7), bottom: H })
  }
}

describe("PATCH /v1/videos/:id/captions", () => {
  it("fixes and splits a word, breaks lines, swaps the template and moves the block; the render burns it; an earlier mp4 stays", async () => {
    const video = await project("api")
    const before = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token: studio.token })
    expect(before.body).toMatchObject({ revision: 0, lineStarts: null, adjustments: {} })
    const words = before.body.words as Array<{ text: string; start: number; end: number }>
    expect(words.length).toBeGreaterThan(3)

    const fixed = words.map((w, i) => (i === 0 ? { ...w, text: "Hello there" } : w))
    const answer = await edit(video.id, {
      words: fixed,
      lineStarts: [0, 2],
      templateId: -3,
      adjustments: { position: "top", marginRatio: 0.05 },
      revision: 0
    })
    expect(answer.status).toBe(200)
    expect(answer.body.revision).toBe(1)
    expect(answer.body.words.slice(0, 2).map((w: { text: string }) => w.text)).toEqual(["Hello", "there"])
    expect(answer.body.words).toHaveLength(words.length + 1)
    // The retyped words are timed from the audio (or keep their shared time), before the next word.
    expect(answer.body.words[1].end).toBeLessThanOrEqual(words[1]!.start)
    // Line starts count the words as sent: the break before word 2 moved along with the split.
    expect(answer.body.lineStarts).toEqual([0, 3])
    expect(answer.body.pages[0].lines[0].text).toBe(`Hello there ${words[1]!.text}`)
    expect(answer.body.templateId).toBe(-3)
    expect(answer.body.style).toMatchObject({ position: "top", marginRatio: 0.05, linesPerPage: 1 })
    expect(answer.body.srt).toContain("Hello there")
    expect((await call(app.baseUrl, `/v1/videos/${video.id}`, { token: studio.token })).body.templateId).toBe(-3)

    // The render burns the edits: captions in the top band, none at the bottom.
    expect((await call(app.baseUrl, `/v1/videos/${video.id}/render`, { method: "POST", token: studio.token, json: {} })).status).toBe(200)
    const rendered = await waitForVideo(app.baseUrl, studio.token, video.id)
    expect(rendered.export).toMatchObject({ status: "completed", startedIn: "api" })
    const mp4 = await download(rendered.videoUrl, dir, "edited.mp4")
    const t = (words[1]!.start + words[1]!.end) / 2
    const atTop = await bands(mp4, t)
    expect(atTop.top).toBeGreaterThan(0.005)
    expect(atTop.bottom).toBeLessThan(0.001)

    // A later edit changes what the next render burns, not the mp4 already made.
    expect((await edit(video.id, { adjustments: { position: "bottom" } })).status).toBe(200)
    const after = await call(app.baseUrl, `/v1/videos/${video.id}`, { token: studio.token })
    expect(after.body.videoUrl).toBe(rendered.videoUrl)
    expect(await bands(await download(after.body.videoUrl, dir, "again.mp4"), t)).toEqual(atTop)

    // Edits send nothing: the creation and the API render sent one event each.
    await new Promise((r) => setTimeout(r, 500))
    expect(eventsFor("api").map((r) => r.headers["x-service-event"])).toEqual(["video.completed", "video.completed"])
  }, 180_000)

  it("times retyped words from the audio, not from the times sent: each within 80 ms of where festival said it", async () => {
    const video = await project("realign")
    const stored = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token: studio.token })).body.words as Array<{ text: string; start: number; end: number }>
    expect(clip.words.slice(0, 3).map((w) => w.text.toLowerCase())).toEqual(["good", "morning", "everyone"])
    // The first sentence retyped as written, its times a poor guess (squeezed into its first half
    // second); the words after it as they were.
    const rest = stored.filter((w) => w.start >= clip.words[3]!.start - 0.1)
    const from = clip.words[0]!.start
    const retyped = ["Good", "morning,", "everyone."].map((text, i) => ({ text, start: from + i * 0.15, end: from + i * 0.15 + 0.14 }))
    const answer = await edit(video.id, { words: [...retyped, ...rest] })
    expect(answer.status).toBe(200)
    const saved = answer.body.words as Array<{ text: string; start: number }>
    expect(saved.map((w) => w.text)).toEqual([...retyped, ...rest].map((w) => w.text))
    const errors = saved.slice(0, 3).map((w, i) => Math.abs(w.start - clip.words[i]!.start))
    expect(Math.max(...errors)).toBeLessThan(0.08)
    expect(Math.max(...retyped.map((w, i) => Math.abs(w.start - clip.words[i]!.start)))).toBeGreaterThan(0.15)
    expect(saved.slice(3)).toEqual(rest)
  })

  it("refuses bad edits naming the field, a stale revision, and another workspace's video; nothing is saved", async () => {
    const video = await project("refusals")
    const { words } = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token: studio.token })).body
    const swapped = [words[1], words[0], ...words.slice(2)]
    const cases: ReadonlyArray<[unknown, string]> = [
      [{ words: swapped }, "words.1.start"],
      [{ words: [{ ...words[0], text: "  " }, ...words.slice(1)] }, "words.0.text"],
      [{ lineStarts: [1] }, "lineStarts.0"],
      [{ lineStarts: [0, 999] }, "lineStarts.1"],
      [{ templateId: 4242 }, "templateId"],
      [{ adjustments: { textColor: "red" } }, "adjustments.textColor"]
    ]
    for (const [body, field] of cases) {
      const answer = await edit(video.id, body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.error.details.field).toBe(field)
    }
    expect((await edit(video.id, { lineStarts: [0] })).body.revision).toBe(1)
    const stale = await edit(video.id, { lineStarts: null, revision: 0 })
    expect(stale.status).toBe(409)
    expect(stale.body.error.message).toMatch(/revision 0 \(now 1\)/)
    expect((await edit(video.id, { lineStarts: null }, other.token)).status).toBe(404)
    const now = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token: studio.token })
    expect(now.body).toMatchObject({ revision: 1, lineStarts: [0], words })
  }, 120_000)
})

describe("the editor's routes", () => {
  it("let only a signed-in member in, want the CSRF token on writes, and export without an event", async () => {
    const video = await project("editor")
    const editorPath = new URL(video.editorUrl).pathname

    // Signed out: the sign-in page for the page, 401 for the JSON routes.
    const signedOut = new FormBrowser(app.baseUrl)
    expect((await signedOut.request(editorPath)).html).toContain("Sign in")
    expect((await signedOut.request(`${editorPath}/state`)).response.status).toBe(401)

    // A member of another workspace: the same 404 as for no project, nothing of the project in it.
    const stranger = new FormBrowser(app.baseUrl)
    expect(await stranger.signIn(editorPath, "stranger@example.com", PASSWORD)).toBe(editorPath)
    const refused = await stranger.request(editorPath)
    expect(refused.response.status).toBe(404)
    expect(refused.html).not.toContain(video.id)
    expect((await stranger.request(`${editorPath}/state`)).response.status).toBe(404)

    // The member: the page, with its headers and its CSRF token.
    const member = new FormBrowser(app.baseUrl)
    expect(await member.signIn(editorPath, "editor@example.com", PASSWORD)).toBe(editorPath)
    const page = await member.request(editorPath)
    expect(page.response.status).toBe(200)
    expect(page.response.headers.get("x-frame-options")).toBe("DENY")
    expect(page.response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(page.response.headers.get("cache-control")).toBe("no-store")
    const bootstrap = JSON.parse(/<script type="application\/json" id="editor-bootstrap">([\s\S]*?)<\/script>/.exec(page.html)![1]!.replace(/\\u003c/g, "<"))
    expect(bootstrap.video).toMatchObject({ id: video.id, width: W, height: H })
    expect(bootstrap.captions.revision).toBe(0)
    const csrf = bootstrap.csrf as string

    const send = (path: string, method: string, json: unknown, token: string | null = csrf) =>
      member.request(`${editorPath}${path}`, { method, json, headers: token === null ? {} : { [CSRF_HEADER]: token } })
    expect((await send("/captions", "PATCH", { adjustments: { position: "top" } }, null)).response.status).toBe(403)
    expect((await send("/captions", "PATCH", { adjustments: { position: "top" } }, "forged")).response.status).toBe(403)
    const saved = await send("/captions", "PATCH", { adjustments: { position: "top" }, revision: 0 })
    expect(saved.response.status).toBe(200)
    expect(JSON.parse(saved.html)).toMatchObject({ revision: 1, style: { position: "top" } })
    const bad = await send("/captions", "PATCH", { lineStarts: [3] })
    expect(bad.response.status).toBe(400)
    expect(JSON.parse(bad.html).error.details.field).toBe("lineStarts.0")

    const template = await send("/templates", "POST", { name: "Top captions" })
    expect(template.response.status).toBe(200)
    expect(JSON.parse(template.html)).toMatchObject({ name: "Top captions", builtIn: false, style: { position: "top" } })

    const exported = await send("/export", "POST", { frameRate: 30 })
    expect(exported.response.status).toBe(200)
    expect(JSON.parse(exported.html).export).toMatchObject({ status: "rendering", startedIn: "editor" })
    const done = await waitForVideo(app.baseUrl, studio.token, video.id)
    expect(done.export).toMatchObject({ status: "completed", startedIn: "editor" })
    const credits = await call(app.baseUrl, "/v1/credit-logs", { token: studio.token })
    expect(JSON.stringify(credits.body)).toContain(video.id)
    await new Promise((r) => setTimeout(r, 500))
    // Only the creation's event: the editor's export sent none.
    expect(eventsFor("editor").map((r) => r.headers["x-service-event"])).toEqual(["video.completed"])

    // Once the media are deleted the page has no picture to play, and says why; edits are refused.
    expect(JSON.parse((await member.request(`${editorPath}/state`)).html).video).toMatchObject({ picture: "ready", sourceUrl: expect.stringContaining("/media/") })
    expect((await call(app.baseUrl, `/v1/videos/${video.id}/media`, { method: "DELETE", token: studio.token })).status).toBe(200)
    const gone = JSON.parse((await member.request(`${editorPath}/state`)).html).video
    expect(gone).toMatchObject({ picture: "failed", sourceUrl: "", pictureError: expect.stringContaining("no longer stored") })
    expect((await send("/captions", "PATCH", { lineStarts: null })).response.status).toBe(409)
  }, 180_000)
})
