// Webhooks end to end: the https receiver on loopback gets one signed event per piece of work,
// whose video object equals GET /v1/videos/:id; an untrusted certificate is a recorded failure.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openAsBlob } from "node:fs"
import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { Webhook } from "standardwebhooks"
import { Outbox } from "../../domain/ports/outbox.ts"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { makeSpokenClip, type SpokenClip } from "../support/clips.ts"
import { call, serveFiles, waitForVideo } from "../support/http-client.ts"
import { startHttpsReceiver, type HttpsReceiver } from "../support/https-receiver.ts"

let app: TestApp
let dir: string
let clip: SpokenClip
let receiver: HttpsReceiver
let untrusted: HttpsReceiver

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "webhooks-e2e-"))
  clip = await makeSpokenClip({ text: "The weather is nice today. We are going to the park to play.", width: 360, height: 640, fps: 30, dir })
  receiver = await startHttpsReceiver()
  untrusted = await startHttpsReceiver({ trusted: false })
})

afterAll(async () => {
  await receiver?.close()
  await untrusted?.close()
  await app?.close()
})

const upload = async (token: string, fields: Record<string, string>) => {
  const form = new FormData()
  form.set("file", await openAsBlob(clip.path), "clip.mp4")
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  const created = await call(app.baseUrl, "/v1/caption-videos", { token, form })
  expect(created.status).toBe(200)
  return created.body.id as string
}

const eventsFor = (videoId: string) =>
  app.runtime.runPromise(Effect.gen(function*() {
    const outbox = yield* Outbox
    const events = yield* outbox.forSubject(videoId)
    return yield* Effect.forEach(events, (e) => Effect.map(outbox.attempts(e.id), (attempts) => ({ event: e, attempts })))
  }))

const waitUntil = async (check: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting")
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe("webhook delivery", () => {
  it("posts one signed video.completed per piece of work, with the video exactly as GET returns it", async () => {
    const { workspaceId, token } = await app.createWorkspace()
    const secret = await call(app.baseUrl, `/admin/workspaces/${workspaceId}/webhook-secret`, { token: ADMIN_TOKEN, json: {} })
    expect(secret.status).toBe(200)
    expect(secret.body.secret).toMatch(/^whsec_/)

    const hookUrl = `${receiver.url}/hooks/s3cret-path?key=s3cret-query`
    const id = await upload(token, { render: "{}", webhookUrl: hookUrl })
    await waitUntil(() => receiver.requests.some((r) => r.headers["x-service-video-id"] === id))
    const video = await waitForVideo(app.baseUrl, token, id)
    expect(JSON.stringify(video)).not.toContain("s3cret")

    const [delivery] = receiver.requests.filter((r) => r.headers["x-service-video-id"] === id)
    expect(delivery!.method).toBe("POST")
    expect(delivery!.path).toBe("/hooks/s3cret-path?key=s3cret-query")
    expect(delivery!.headers["content-type"]).toBe("application/json")
    expect(delivery!.headers["x-service-event"]).toBe("video.completed")
    const headers = {
      "webhook-id": String(delivery!.headers["webhook-id"]),
      "webhook-timestamp": String(delivery!.headers["webhook-timestamp"]),
      "webhook-signature": String(delivery!.headers["webhook-signature"])
    }
    const verified = new Webhook(secret.body.secret).verify(delivery!.body, headers) as { event: string; video: unknown }
    expect(verified.event).toBe("video.completed")
    expect(verified.video).toEqual(video)
    expect(() => new Webhook(secret.body.secret).verify(delivery!.body.replace("completed", "failed"), headers)).toThrow()

    // A render is a second piece of work: a second event, a new webhook-id, the same video id.
    await call(app.baseUrl, `/v1/videos/${id}/render`, { token, json: { frameRate: 60 } })
    await waitUntil(() => receiver.requests.filter((r) => r.headers["x-service-video-id"] === id).length === 2)
    const [, second] = receiver.requests.filter((r) => r.headers["x-service-video-id"] === id)
    expect(second!.headers["webhook-id"]).not.toBe(headers["webhook-id"])
    expect(JSON.parse(second!.body).video.export.frameRate).toBe(60)

    const recorded = await eventsFor(id)
    expect(recorded.map((r) => r.event.state)).toEqual(["delivered", "delivered"])
    expect(recorded.flatMap((r) => r.attempts).map((a) => a.status)).toEqual([200, 200])
    expect(JSON.stringify(recorded.map((r) => r.attempts))).not.toContain("s3cret")
  })

  it("sends video.failed with the error when the work fails, unsigned without a secret", async () => {
    const { token } = await app.createWorkspace()
    // An uploaded source is checked at create; one at a URL only once fetched, by the work.
    const bad = join(dir, "bad.mp4")
    await writeFile(bad, "not a video".repeat(50))
    const files = await serveFiles({ "bad.mp4": { path: bad, contentType: "video/mp4" } })
    const created = await call(app.baseUrl, "/v1/caption-videos", {
      token,
      json: { url: files.url("bad.mp4"), webhookUrl: `${receiver.url}/failures` }
    })
    expect(created.status).toBe(200)
    const id = created.body.id as string
    await waitUntil(() => receiver.requests.some((r) => r.headers["x-service-video-id"] === id)).finally(() => files.close())
    const delivery = receiver.requests.find((r) => r.headers["x-service-video-id"] === id)!
    expect(delivery.headers["x-service-event"]).toBe("video.failed")
    expect(delivery.headers["webhook-signature"]).toBeUndefined()
    const body = JSON.parse(delivery.body)
    expect(body.video.status).toBe("failed")
    expect(body.video.error).toMatch(/not a media file/i)
  })

  it("records a receiver whose certificate is not trusted as a failed attempt, to be retried", async () => {
    const { token } = await app.createWorkspace()
    const id = await upload(token, { webhookUrl: `${untrusted.url}/hook/secret-part` })
    await waitForVideo(app.baseUrl, token, id)
    await waitUntil(async () => (await eventsFor(id)).some((r) => r.attempts.length > 0))
    const [recorded] = await eventsFor(id)
    const { event, attempts } = recorded!
    expect(untrusted.requests).toHaveLength(0)
    expect(event.state).toBe("pending")
    expect(attempts[0]!.status).toBeNull()
    expect(attempts[0]!.error).toMatch(/certificate|self.signed|TLS/i)
    expect(attempts[0]!.target).not.toContain("secret-part")
  })
})
