// The video lifecycle over HTTP: cancel a caption video in the middle of its work (its transcription
// request is cut off, its charge refunded, one video.failed delivered), delete a finished video's
// media (every link dies, the record stays), and read a video's webhook delivery log. Transcription
// goes to an OpenAI-compatible stand-in on loopback, so a test decides when it answers.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { openAsBlob } from "node:fs"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Option } from "effect"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { makeSpokenClip, type SpokenClip } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { type HttpsReceiver, startHttpsReceiver } from "../support/https-receiver.ts"
import { answerJson, type StandIn, startStandIn } from "../support/stand-in.ts"

let app: TestApp
let clip: SpokenClip
let receiver: HttpsReceiver
let transcription: StandIn
/** While set, transcription requests get no answer; each one's connection closing is recorded. */
let hanging = false
const transcriptionRequests: Array<{ readonly closed: Promise<void> }> = []

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "video-lifecycle-e2e-"))
  clip = await makeSpokenClip({ text: "Stop this video now.", width: 360, height: 640, fps: 30, dir })
  transcription = await startStandIn((req, _body, res) => {
    transcriptionRequests.push({ closed: new Promise((resolve) => req.socket.once("close", () => resolve())) })
    if (hanging) return
    answerJson(res, 200, { text: "", words: clip.words.map((w) => ({ word: w.text, start: w.start, end: w.end })) })
  })
  vi.stubEnv("TRANSCRIBER", "openai")
  vi.stubEnv("OPENAI_API_KEY", "sk-lifecycle-test")
  vi.stubEnv("OPENAI_BASE_URL", transcription.baseUrl)
  app = await startApp()
  receiver = await startHttpsReceiver()
})

afterAll(async () => {
  vi.unstubAllEnvs()
  await receiver?.close()
  await app?.close()
  await transcription?.close()
})

const upload = async (token: string, fields: Record<string, string> = {}) => {
  const form = new FormData()
  form.set("file", await openAsBlob(clip.path), "clip.mp4")
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  const created = await call(app.baseUrl, "/v1/caption-videos", { token, form })
  expect(created.status).toBe(200)
  return created.body.id as string
}

const waitUntil = async (check: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const ledger = (workspaceId: string) =>
  app.runtime.runPromise(Effect.flatMap(Ledger, (l) => Effect.all([l.balance(workspaceId), l.list(workspaceId)])))

const status = async (url: string) => {
  const response = await fetch(url)
  await response.body?.cancel()
  return response.status
}

const deliveriesTo = (videoId: string) => receiver.requests.filter((r) => r.headers["x-service-video-id"] === videoId)

describe("POST /v1/videos/:id/cancel", () => {
  it("stops a caption video while it is transcribing: failed \"cancelled\", its charge refunded, one video.failed", async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 100 })
    hanging = true
    const before = transcriptionRequests.length
    const id = await upload(token, { render: "{}", webhookUrl: `${receiver.url}/hooks/s3cret?key=s3cret` })
    await waitUntil(() => transcriptionRequests.length > before, "the transcription request")
    const [charged] = await ledger(workspaceId)
    expect(charged).toBe(98)

    const deleting = await call(app.baseUrl, `/v1/videos/${id}/media`, { token, method: "DELETE" })
    expect(deleting.status).toBe(409)
    expect(deleting.body.error.message).toMatch(/processing; cancel it first/)

    const cancelled = await call(app.baseUrl, `/v1/videos/${id}/cancel`, { token, json: {} })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ id, status: "failed", step: "transcribing" })
    expect(cancelled.body.error).toMatch(/^cancelled: /)

    // The worker notices and interrupts the job: the request it was waiting on is cut off.
    await transcriptionRequests[before]!.closed
    hanging = false
    const [balance, entries] = await ledger(workspaceId)
    expect(balance).toBe(100)
    expect(entries.filter((e) => e.videoId === id).map((e) => e.amount)).toEqual([-2, 2])

    await waitUntil(() => deliveriesTo(id).length > 0, "the video.failed delivery")
    const [delivery] = deliveriesTo(id)
    expect(delivery!.headers["x-service-event"]).toBe("video.failed")
    expect(JSON.parse(delivery!.body).video).toMatchObject({ id, status: "failed", error: cancelled.body.error })

    const log = await call(app.baseUrl, `/v1/videos/${id}/deliveries`, { token })
    expect(log.status).toBe(200)
    expect(log.body).toMatchObject({ nextCursor: null, data: [{ event: "video.failed", target: `${receiver.url}/…` }] })
    expect(log.body.data).toHaveLength(1)
    expect(log.body.data[0].attempts).toMatchObject([{ series: 1, attempt: 1, status: 200, error: null, target: `${receiver.url}/…` }])
    expect(JSON.stringify(log.body)).not.toContain("s3cret")

    const again = await call(app.baseUrl, `/v1/videos/${id}/cancel`, { token, json: {} })
    expect(again.status).toBe(409)
    expect(again.body.error.message).toBe("Nothing to cancel: the video is failed and no export is running.")
    // Nothing the stopped job did afterwards changed the record, and no second event went out.
    const after = await call(app.baseUrl, `/v1/videos/${id}`, { token })
    expect(after.body).toMatchObject({ status: "failed", step: "transcribing", error: cancelled.body.error })
    expect(deliveriesTo(id)).toHaveLength(1)
  })

  it("answers 409 naming the status of a finished video, and 404 for another workspace's", async () => {
    const { token } = await app.createWorkspace()
    const id = await upload(token)
    const done = await waitForVideo(app.baseUrl, token, id)
    expect(done.status).toBe("completed")
    const refused = await call(app.baseUrl, `/v1/videos/${id}/cancel`, { token, json: {} })
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toMatch(/the video is completed/)

    const stranger = await app.createWorkspace()
    for (const [method, path] of [["POST", "cancel"], ["DELETE", "media"], ["GET", "deliveries"]] as const) {
      const answer = await call(app.baseUrl, `/v1/videos/${id}/${path}`, { token: stranger.token, method })
      expect(answer.status, path).toBe(404)
    }
  })
})

describe("DELETE /v1/videos/:id/media", () => {
  it("deletes every file of the video, earlier exports included; the record stays and cannot be rendered", async () => {
    const { token } = await app.createWorkspace()
    const id = await upload(token, { render: "{}" })
    const first = await waitForVideo(app.baseUrl, token, id)
    expect(first.status).toBe("completed")
    await call(app.baseUrl, `/v1/videos/${id}/render`, { token, json: { frameRate: 60 } })
    const second = await waitForVideo(app.baseUrl, token, id)
    expect(second.videoUrl).not.toBe(first.videoUrl)
    const links = [first.videoUrl, first.thumbnailUrl, second.videoUrl, second.thumbnailUrl] as Array<string>
    for (const link of links) expect(await status(link)).toBe(200)

    const deleted = await call(app.baseUrl, `/v1/videos/${id}/media`, { token, method: "DELETE" })
    expect(deleted.status).toBe(200)
    expect(deleted.body).toMatchObject({ id, status: "completed", mediaDeletedAt: expect.any(String) })
    expect(deleted.body.videoUrl).toBeUndefined()
    expect(deleted.body.thumbnailUrl).toBeUndefined()
    for (const link of links) expect(await status(link)).toBe(404)

    // The source went too: marked deleted, its bytes gone from the BlobStore.
    const source = await app.runtime.runPromise(Effect.gen(function*() {
      const video = Option.getOrThrow(yield* (yield* VideoStore).getById(id))
      const file = Option.getOrThrow(yield* (yield* FileStore).get(video.sourceFileId!))
      return { file, stored: yield* Effect.exit((yield* BlobStore).size(file.blobKey)) }
    }))
    expect(source.file.deletedAt).toBe(deleted.body.mediaDeletedAt)
    expect(Exit.isFailure(source.stored)).toBe(true)

    const record = await call(app.baseUrl, `/v1/videos/${id}`, { token })
    expect(record.status).toBe(200)
    expect(record.body).toEqual(deleted.body)
    expect((await call(app.baseUrl, `/v1/videos/${id}/captions`, { token })).status).toBe(200)

    const render = await call(app.baseUrl, `/v1/videos/${id}/render`, { token, json: {} })
    expect(render.status).toBe(409)
    expect(render.body.error.message).toMatch(/media were deleted/)

    const repeated = await call(app.baseUrl, `/v1/videos/${id}/media`, { token, method: "DELETE" })
    expect(repeated.status).toBe(200)
    expect(repeated.body).toEqual(deleted.body)
  })
})
