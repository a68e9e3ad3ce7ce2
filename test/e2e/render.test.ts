// The render operation on finished videos: render later, re-render at another format and frame
// rate (a new charge, the old link kept until the new mp4 lands), 409/402/403, failure with refund.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFile } from "node:child_process"
import { openAsBlob } from "node:fs"
import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { Effect, Option } from "effect"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { bandDifference, makeSpokenClip, readFrame, type SpokenClip } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"

const run = promisify(execFile)

let app: TestApp
let dir: string
let clip: SpokenClip

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "render-e2e-"))
  clip = await makeSpokenClip({
    text: "Render it later. Then render it again in green.",
    width: 360,
    height: 640,
    fps: 30,
    silenceBefore: 0.3,
    silenceAfter: 0.5,
    dir
  })
})

afterAll(async () => {
  await app?.close()
})

const createProject = async (token: string) => {
  const form = new FormData()
  form.set("file", await openAsBlob(clip.path), "clip.mp4")
  const created = await call(app.baseUrl, "/v1/caption-videos", { token, form })
  expect(created.status).toBe(200)
  const video = await waitForVideo(app.baseUrl, token, created.body.id)
  expect(video.status).toBe("completed")
  return video
}

const ledger = (workspaceId: string) =>
  app.runtime.runPromise(Effect.flatMap(Ledger, (l) => Effect.all([l.balance(workspaceId), l.list(workspaceId)])))

const frameRateOf = async (url: string) => {
  const path = join(dir, `${Math.random()}.mp4`)
  await writeFile(path, Buffer.from(await (await fetch(url)).arrayBuffer()))
  const { stdout } = await run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=r_frame_rate,width,height", "-of", "csv=p=0", path])
  return { path, facts: stdout.trim() }
}

describe("POST /v1/videos/:id/render", () => {
  it("renders a finished project later, then re-renders as 60 fps greenscreen with a second charge and event", async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 1000 })
    const project = await createProject(token)
    const [afterCaptions] = await ledger(workspaceId)

    const started = await call(app.baseUrl, `/v1/videos/${project.id}/render`, { token, json: {} })
    expect(started.status).toBe(200)
    expect(started.body.status).toBe("completed")
    expect(started.body.render).toBe(true)
    expect(started.body.export).toMatchObject({ status: "rendering", format: "standard", frameRate: 30, progress: 0 })
    expect(started.body.videoUrl).toBeUndefined()

    const running = await call(app.baseUrl, `/v1/videos/${project.id}/render`, { token, json: {} })
    expect(running.status).toBe(409)

    const first = await waitForVideo(app.baseUrl, token, project.id)
    expect(first.export).toMatchObject({ status: "completed", progress: 1 })
    expect(first.videoUrl).toBeDefined()
    const [afterFirst] = await ledger(workspaceId)
    // 30 credits/min at 30 fps, per started second rounded up.
    expect(afterCaptions - afterFirst).toBe(Math.ceil(Math.ceil(project.duration) * 30 / 60))
    expect((await frameRateOf(first.videoUrl)).facts).toBe("360,640,30/1")

    const again = await call(app.baseUrl, `/v1/videos/${project.id}/render`, { token, json: { format: "greenscreen", frameRate: 60 } })
    expect(again.status).toBe(200)
    expect(again.body.videoUrl).toBe(first.videoUrl) // the old mp4 stays until the new one lands
    const second = await waitForVideo(app.baseUrl, token, project.id)
    expect(second.videoUrl).not.toBe(first.videoUrl)
    const [afterSecond, entries] = await ledger(workspaceId)
    expect(afterFirst - afterSecond).toBe(Math.ceil(project.duration))
    expect(entries.filter((e) => e.reason === "render")).toHaveLength(2)
    const { path, facts } = await frameRateOf(second.videoUrl)
    expect(facts).toBe("360,640,60/1")

    // Green background, non-green captions that change between word times.
    const frame = await readFrame(path, clip.words[0]!.start + 0.05, 360, 640)
    const corner = [frame.rgb[0]!, frame.rgb[1]!, frame.rgb[2]!]
    expect(corner[0]).toBeLessThan(30)
    expect(corner[1]).toBeGreaterThan(220)
    expect(corner[2]).toBeLessThan(30)
    const later = await readFrame(path, clip.words[3]!.start + 0.05, 360, 640)
    expect(bandDifference(frame, later, { top: 0, bottom: 640 })).toBeGreaterThan(0.002)
  })

  it("answers 402 when credits are short, 403 on a plan that cannot render, and charges nothing", async () => {
    const poor = await app.createWorkspace({ credits: 2 })
    const project = await createProject(poor.token)
    const [before] = await ledger(poor.workspaceId)
    const short = await call(app.baseUrl, `/v1/videos/${project.id}/render`, { token: poor.token, json: {} })
    expect(short.status).toBe(402)
    expect(short.body.error.code).toBe("insufficient_credits")
    expect((await ledger(poor.workspaceId))[0]).toBe(before)

    const free = await app.createWorkspace({ plan: "free", credits: 1000 })
    const freeProject = await createProject(free.token)
    const forbidden = await call(app.baseUrl, `/v1/videos/${freeProject.id}/render`, { token: free.token, json: {} })
    expect(forbidden.status).toBe(403)
    const still = await call(app.baseUrl, `/v1/videos/${freeProject.id}`, { token: free.token })
    expect(still.body.export).toBeUndefined()
  })

  it("marks a failed export failed with an error, refunds its credits, and allows rendering again", async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 1000 })
    const project = await createProject(token)
    // Break the stored source so the encoder fails for real.
    const stored = await app.runtime.runPromise(Effect.gen(function*() {
      const video = Option.getOrThrow(yield* (yield* VideoStore).getById(project.id))
      const file = Option.getOrThrow(yield* (yield* FileStore).get(video.sourceFileId!))
      const good = join(dir, "good-source.mp4")
      yield* (yield* BlobStore).getFile(file.blobKey, good)
      const broken = join(dir, "broken.mp4")
      yield* Effect.promise(() => writeFile(broken, "garbage".repeat(1000)))
      yield* (yield* BlobStore).putFile(file.blobKey, broken)
      return { good, blobKey: file.blobKey }
    }))
    const [before] = await ledger(workspaceId)
    const started = await call(app.baseUrl, `/v1/videos/${project.id}/render`, { token, json: {} })
    expect(started.status).toBe(200)
    const failed = await waitForVideo(app.baseUrl, token, project.id)
    expect(failed.status).toBe("failed")
    expect(failed.error).toEqual(expect.any(String))
    expect(failed.export.status).toBe("failed")
    const [after, entries] = await ledger(workspaceId)
    expect(after).toBe(before)
    expect(entries.some((e) => e.reason.startsWith("refund"))).toBe(true)

    // Mend the source: a video that failed after generation can be rendered again.
    await app.runtime.runPromise(Effect.flatMap(BlobStore, (b) => b.putFile(stored.blobKey, stored.good)))
    const retry = await call(app.baseUrl, `/v1/videos/${project.id}/render`, { token, json: {} })
    expect(retry.status).toBe(200)
    const mended = await waitForVideo(app.baseUrl, token, project.id)
    expect(mended.status).toBe("completed")
    expect(mended.error).toBeUndefined()
    expect(mended.videoUrl).toBeDefined()
  })
})
