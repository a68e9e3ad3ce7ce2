// Cancel across processes: an API process cancels a video whose render a worker process is encoding.
// The worker sees the cancelled job in the shared database, kills its ffmpeg and leaves the record
// as the cancel made it: failed "cancelled", every charge of the work refunded, one video.failed.
import { execFile } from "node:child_process"
import { openAsBlob } from "node:fs"
import { describe, expect, it } from "vitest"
import { call } from "../support/http-client.ts"
import { useDeployment } from "../support/deployment-fixture.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"

/** Whether an ffmpeg of the video's render runs (it writes under a scratch folder named `<videoId>-render-...`). */
const encoding = (videoId: string) =>
  new Promise<boolean>((resolve) => execFile("pgrep", ["-f", `ffmpeg.*${videoId}-render`], (error) => resolve(error === null)))

describe.skipIf(postgresSkipReason !== undefined)("cancelling a video that a worker process is rendering", () => {
  const env = useDeployment("The ferry leaves the harbour at nine.")

  it("stops the worker's ffmpeg, refunds the work and sends one video.failed", async () => {
    const { deployment, receiver } = env
    const api = await deployment.startApi()
    // A slow preset keeps the encode running long enough to be cancelled in the act.
    const worker = await deployment.startWorker({ X264_PRESET: "veryslow" })
    const { workspaceId, token } = await deployment.createWorkspace(api, 1000)
    const form = new FormData()
    form.append("file", await openAsBlob(env.clip.path, { type: "video/mp4" }), "clip.mp4")
    form.append("render", "{}")
    form.append("webhookUrl", `${receiver.url}/hook`)
    const created = await call(api.baseUrl, "/v1/caption-videos", { token, form })
    expect(created.status).toBe(200)
    const id: string = created.body.id

    await deployment.until(() => encoding(id), "the worker to start encoding", 90_000)
    const cancelled = await call(api.baseUrl, `/v1/videos/${id}/cancel`, { token, json: {} })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body).toMatchObject({ status: "failed", step: "rendering" })
    expect(cancelled.body.error).toMatch(/^cancelled: /)

    await deployment.until(async () => !(await encoding(id)), "the worker to stop its ffmpeg", 30_000)
    const jobs = await deployment.rows<{ kind: string; status: string }>(
      "SELECT kind, status FROM jobs WHERE payload->>'videoId' = $1 ORDER BY seq",
      [id]
    )
    expect(jobs).toEqual([{ kind: "caption-video.generate", status: "done" }, { kind: "video.render", status: "cancelled" }])
    const entries = await deployment.rows<{ reason: string; amount: number }>(
      "SELECT reason, amount::int AS amount FROM ledger WHERE video_id = $1 ORDER BY seq",
      [id]
    )
    expect(entries.map((e) => e.reason).sort()).toEqual(["captions", "refund: captions", "refund: render", "render"])
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0)
    const [balance] = await deployment.rows<{ balance: number }>(
      "SELECT SUM(amount)::int AS balance FROM ledger WHERE workspace_id = $1",
      [workspaceId]
    )
    expect(balance!.balance).toBe(1000)

    await deployment.until(async () => {
      const events = await deployment.rows<{ state: string }>("SELECT state FROM outbox_events WHERE subject_id = $1", [id])
      return events.some((e) => e.state === "delivered")
    }, "the video.failed delivery")
    const events = await deployment.rows<{ name: string }>("SELECT name FROM outbox_events WHERE subject_id = $1", [id])
    expect(events).toEqual([{ name: "video.failed" }])
    const received = receiver.requests.filter((r) => r.headers["x-service-video-id"] === id)
    expect(received.map((r) => r.headers["x-service-event"])).toEqual(["video.failed"])

    const after = await call(api.baseUrl, `/v1/videos/${id}`, { token })
    expect(after.body).toMatchObject({ status: "failed", step: "rendering", error: cancelled.body.error })
    expect(after.body.videoUrl).toBeUndefined()
    expect(worker.log()).not.toContain("job crashed")
  })
})
