// A landscape talk made a vertical short over HTTP: festival speech over a head (from the photos
// @vladmandic/face-api ships) moving across a 640x360 picture, created with `reframe`, rendered at the
// shape asked; the framing on the captions resource, the reframing's charge, another shape asked later
// with PATCH (face asked of a video made without looking: looked for by its next render), and the 400s.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFile } from "node:child_process"
import { openAsBlob } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { randomUUID } from "node:crypto"
import { Deferred, Effect, Layer, Option } from "effect"
import { FaceApiFinderLive } from "../../adapters/media/face-api-finder.ts"
import { FaceFinder } from "../../domain/ports/face-finder.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { outputSeconds } from "../../domain/video.ts"
import { REFRAME_CREDITS_PER_MINUTE, renderCredits } from "../../domain/pricing.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { speak } from "../support/festival.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { probeVideo } from "../support/media-checks.ts"

const run = promisify(execFile)
const require = createRequire(import.meta.url)
const DEMO = join(dirname(require.resolve("@vladmandic/face-api/package.json")), "demo")

let app: TestApp
let dir: string
let talk: string

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "reframe-e2e-"))
  const speech = await speak("Today we talk about the harbour. The boats come in early, and the market opens at six.", dir)
  talk = join(dir, "talk.mp4")
  await run("ffmpeg", [
    "-nostdin", "-y", "-v", "error",
    "-f", "lavfi", "-i", "color=c=0x4a6a8a:s=640x360:r=30",
    "-i", join(DEMO, "sample2.jpg"), "-i", speech.wavPath,
    "-filter_complex", "[1:v]crop=340:420:1372:70,scale=-2:130,loop=-1:1[head];[0:v][head]overlay=x='40+t*70':y=110:shortest=1[v]",
    "-map", "[v]", "-map", "2:a", "-shortest",
    "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", talk
  ])
})

afterAll(async () => {
  await app?.close()
  await rm(dir, { recursive: true, force: true })
})

const upload = async (token: string, fields: Readonly<Record<string, string>>, to: TestApp = app) => {
  const form = new FormData()
  form.set("file", await openAsBlob(talk), "talk.mp4")
  for (const [name, value] of Object.entries(fields)) form.set(name, value)
  return call(to.baseUrl, "/v1/caption-videos", { token, form })
}

describe("reframe on caption videos", () => {
  it("follows the face into a 9:16 render, lists the framing with the captions, and charges the looking per started minute", async () => {
    const { token } = await app.createWorkspace()
    const created = await upload(token, { reframe: JSON.stringify({ aspectRatio: "9:16", mode: "face" }), render: "{}" })
    expect(created.status).toBe(200)
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.error).toBeUndefined()
    expect(video.status).toBe("completed")
    expect([video.width, video.height]).toEqual([1080, 1920])

    const mp4 = join(dir, "reframed.mp4")
    await writeFile(mp4, Buffer.from(await (await fetch(video.videoUrl)).arrayBuffer()))
    expect(await probeVideo(mp4)).toMatchObject({ width: 1080, height: 1920 })

    const captions = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })).body
    expect(captions.reframe).toEqual({ aspectRatio: "9:16", mode: "face" })
    expect(captions.framing).toMatchObject({ mode: "face", sourceWidth: 640, sourceHeight: 360, width: 1080, height: 1920, crop: { width: 202, height: 360 } })
    // The head moves right: the window follows it.
    const path = captions.framing.paths[0] as Array<{ seconds: number; x: number }>
    expect(path.at(-1)!.x).toBeGreaterThan(path[0]!.x + 100)

    // Another shape later: the face path re-made for 1:1, the video's size following, rendered at it.
    const patch = (json: unknown) => call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json })
    const square = await patch({ reframe: { aspectRatio: "1:1", mode: "face" } })
    expect(square.status).toBe(200)
    expect(square.body.reframe).toEqual({ aspectRatio: "1:1", mode: "face" })
    expect(square.body.framing).toMatchObject({ mode: "face", width: 1080, height: 1080, crop: { width: 360, height: 360 } })
    expect(square.body.framing.paths[0].map((k: { seconds: number }) => k.seconds)).toEqual(path.map((k) => k.seconds))
    expect((await call(app.baseUrl, `/v1/videos/${video.id}`, { token })).body).toMatchObject({ width: 1080, height: 1080 })
    expect((await call(app.baseUrl, `/v1/videos/${video.id}/render`, { token, json: {} })).status).toBe(200)
    const rendered = await waitForVideo(app.baseUrl, token, video.id)
    expect(rendered).toMatchObject({ status: "completed", export: { status: "completed" } })
    const squareMp4 = join(dir, "square.mp4")
    await writeFile(squareMp4, Buffer.from(await (await fetch(rendered.videoUrl)).arrayBuffer()))
    expect(await probeVideo(squareMp4)).toMatchObject({ width: 1080, height: 1080 })
    // The other face mode, planned from the faces the analysis kept: split asked of a talk with one face is
    // drawn as face, following the head again (not looked at again: charged nothing).
    const split = await patch({ reframe: { aspectRatio: "9:16", mode: "split" } })
    expect(split.status).toBe(200)
    expect(split.body.reframe).toEqual({ aspectRatio: "9:16", mode: "split" })
    expect(split.body.framing).toMatchObject({ mode: "face", width: 1080, height: 1920, crop: { width: 202, height: 360 } })
    expect(split.body.framing.paths).toEqual(captions.framing.paths)
    expect((await call(app.baseUrl, `/v1/videos/${video.id}`, { token })).body).toMatchObject({ width: 1080, height: 1920 })
    // Back to the source's own frame.
    const unframed = await patch({ reframe: null })
    expect(unframed.status).toBe(200)
    expect([unframed.body.reframe, unframed.body.framing]).toEqual([null, null])
    expect((await call(app.baseUrl, `/v1/videos/${video.id}`, { token })).body).toMatchObject({ width: 640, height: 360 })

    // The looking was charged once: re-shaping looks at nothing.
    const logs = (await call(app.baseUrl, `/v1/credit-logs?videoId=${video.id}`, { token })).body.data as Array<{ operation: string; amount: number }>
    expect(logs.filter((l) => l.operation === "reframing").map((l) => l.amount)).toEqual([-REFRAME_CREDITS_PER_MINUTE])
  }, 240_000)

  it("charges nothing to reframe to the centre and keeps the shape asked; face asked later is looked for by the next render, charged then", async () => {
    const { token } = await app.createWorkspace()
    const created = await upload(token, { reframe: JSON.stringify({ aspectRatio: "1:1", mode: "center" }) })
    const video = await waitForVideo(app.baseUrl, token, created.body.id)
    expect(video.status).toBe("completed")
    expect([video.width, video.height]).toEqual([1080, 1080])
    const captions = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })).body
    expect(captions.framing).toMatchObject({ mode: "center", crop: { width: 360, height: 360 }, paths: [[{ seconds: 0, x: 140, y: 0 }]] })
    const logs = (await call(app.baseUrl, `/v1/credit-logs?videoId=${video.id}`, { token })).body.data as Array<{ operation: string }>
    expect(logs.map((l) => l.operation)).toEqual(["captions"])

    // A person moves the window at 1 s: the path passes through it there; a window outside the source is a 400 naming the key.
    const moved = [{ seconds: 0, x: 140, y: 0 }, { seconds: 1, x: 0, y: 0 }]
    const patched = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { framing: { paths: [moved] } } })
    expect(patched.status).toBe(200)
    expect(patched.body.framing).toMatchObject({ mode: "center", crop: { width: 360, height: 360 }, paths: [moved] })
    const outside = await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { framing: { paths: [[{ seconds: 0, x: 281, y: 0 }]] } } })
    expect(outside.status).toBe(400)
    expect(outside.body.error.details.field).toBe("framing.paths.0.0.x")

    // Face asked of a video never looked at for faces: its next render looks (charged then), meanwhile no
    // window is planned and none can be moved.
    const patch = (json: unknown) => call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json })
    const face = await patch({ reframe: { aspectRatio: "9:16", mode: "face" } })
    expect(face.status).toBe(200)
    expect([face.body.reframe, face.body.framing]).toEqual([{ aspectRatio: "9:16", mode: "face" }, null])
    expect((await call(app.baseUrl, `/v1/videos/${video.id}`, { token })).body).toMatchObject({ width: 1080, height: 1920 })
    const early = await patch({ framing: { paths: [moved] } })
    expect(early.status).toBe(400)
    expect(early.body.error.details.field).toBe("framing")
    expect(early.body.error.message).toContain("next render")
    const operations = async () =>
      ((await call(app.baseUrl, `/v1/credit-logs?videoId=${video.id}`, { token })).body.data as Array<{ operation: string; amount: number }>)
        .filter((l) => l.operation === "reframing").map((l) => l.amount)
    expect(await operations()).toEqual([])
    expect((await call(app.baseUrl, `/v1/videos/${video.id}/render`, { token, json: {} })).status).toBe(200)
    const rendered = await waitForVideo(app.baseUrl, token, video.id)
    expect(rendered).toMatchObject({ status: "completed", export: { status: "completed" }, width: 1080, height: 1920 })
    const mp4 = join(dir, "face-later.mp4")
    await writeFile(mp4, Buffer.from(await (await fetch(rendered.videoUrl)).arrayBuffer()))
    expect(await probeVideo(mp4)).toMatchObject({ width: 1080, height: 1920 })
    const planned = (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })).body
    expect(planned.framing).toMatchObject({ mode: "face", width: 1080, height: 1920, crop: { width: 202, height: 360 } })
    // The head moves right: the window follows it.
    const path = planned.framing.paths[0] as Array<{ seconds: number; x: number }>
    expect(path.at(-1)!.x).toBeGreaterThan(path[0]!.x + 100)
    expect(await operations()).toEqual([-REFRAME_CREDITS_PER_MINUTE])
    // What it found is kept: split is planned from it (one face: drawn as face), looked at again by nothing.
    const split = await patch({ reframe: { aspectRatio: "9:16", mode: "split" } })
    expect(split.body.framing).toMatchObject({ mode: "face", paths: planned.framing.paths })
    expect(await operations()).toEqual([-REFRAME_CREDITS_PER_MINUTE])
  }, 240_000)

  it("charges a render's looking for faces with its request (one 402 for both) and counts the looking in the export's progress", async () => {
    // The real finder behind a stand-in that reports half its looking done, then holds until let go.
    const letGo = Effect.runSync(Deferred.make<void>())
    const holding = Layer.effect(
      FaceFinder,
      Effect.map(FaceFinder, (real) =>
        FaceFinder.of({
          find: (search) => Effect.sync(() => search.onProgress?.(0.5)).pipe(Effect.zipRight(Deferred.await(letGo)), Effect.zipRight(real.find(search)))
        }))
    ).pipe(Layer.provide(FaceApiFinderLive))
    const held = await startApp({ faceFinder: holding })
    try {
      const { token, workspaceId } = await held.createWorkspace()
      const created = await upload(token, {}, held)
      const video = await waitForVideo(held.baseUrl, token, created.body.id)
      expect(video.status).toBe("completed")
      const patched = await call(held.baseUrl, `/v1/videos/${video.id}/captions`, { token, method: "PATCH", json: { reframe: { aspectRatio: "9:16", mode: "face" } } })
      expect(patched.body.framing).toBeNull()

      // One credit short of the render and the looking together: 402 naming both, nothing charged or started.
      const ledger = (work: (l: Ledger["Type"]) => Effect.Effect<unknown, unknown>) => held.runtime.runPromise(Effect.flatMap(Ledger, work))
      const record = await held.runtime.runPromise(Effect.flatMap(VideoStore, (videos) => videos.getById(video.id)).pipe(Effect.map(Option.getOrThrow)))
      const needed = renderCredits(outputSeconds(record), 30) + REFRAME_CREDITS_PER_MINUTE
      const adjust = (amount: number) =>
        ledger((l) => l.post({ id: randomUUID(), workspaceId, key: randomUUID(), amount, reason: "test", operation: "top-up", workKey: null, videoId: null, at: new Date().toISOString() }))
      await adjust(needed - 1 - ((await ledger((l) => l.balance(workspaceId))) as number))
      const short = await call(held.baseUrl, `/v1/videos/${video.id}/render`, { token, json: {} })
      expect(short.status).toBe(402)
      expect(short.body.error.details).toEqual({ required: needed, balance: needed - 1 })
      expect(await ledger((l) => l.balance(workspaceId))).toBe(needed - 1)
      expect((await call(held.baseUrl, `/v1/videos/${video.id}`, { token })).body.export).toBeUndefined()

      await adjust(1)
      expect((await call(held.baseUrl, `/v1/videos/${video.id}/render`, { token, json: {} })).status).toBe(200)
      expect(await ledger((l) => l.balance(workspaceId))).toBe(0)
      // While the finder holds halfway, the export shows part of its progress, and not the encode's.
      const looking = await waitForVideo(held.baseUrl, token, video.id, (v) => v.export?.progress > 0, 30_000)
      expect(looking.export).toMatchObject({ status: "rendering" })
      expect(looking.export.progress).toBeLessThan(0.5)
      Effect.runSync(Deferred.succeed(letGo, undefined))
      const rendered = await waitForVideo(held.baseUrl, token, video.id)
      expect(rendered).toMatchObject({ export: { status: "completed", progress: 1 }, width: 1080, height: 1920 })
      const logs = (await call(held.baseUrl, `/v1/credit-logs?videoId=${video.id}`, { token })).body.data as Array<{ operation: string; amount: number }>
      expect(logs.filter((l) => l.operation === "reframing").map((l) => l.amount)).toEqual([-REFRAME_CREDITS_PER_MINUTE])
    } finally {
      Effect.runSync(Deferred.succeed(letGo, undefined))
      await held.close()
    }
  }, 240_000)

  it("refuses a shape or mode it does not know, with a 400 naming the field", async () => {
    const { token } = await app.createWorkspace()
    const json = (reframe: unknown) => call(app.baseUrl, "/v1/caption-videos", { token, json: { url: "http://127.0.0.1:9/talk.mp4", reframe } })
    const shape = await json({ aspectRatio: "3:2", mode: "face" })
    expect(shape.status).toBe(400)
    expect(shape.body.error.details.field).toBe("reframe.aspectRatio")
    const mode = await json({ aspectRatio: "9:16", mode: "zoom" })
    expect(mode.status).toBe(400)
    expect(mode.body.error.details.field).toBe("reframe.mode")
    const form = await upload(token, { reframe: "{\"aspectRatio\":\"9:16\"}" })
    expect(form.status).toBe(400)
    expect(form.body.error.details.field).toBe("reframe.mode")
  })
})
