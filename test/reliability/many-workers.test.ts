// Three worker machines and one API on one database and one bucket: thirty videos, each generated
// exactly once, charged once and announced once, and every worker takes a share.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openAsBlob } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSpokenClip, type SpokenClip } from "../support/clips.ts"
import { call } from "../support/http-client.ts"
import { type HttpsReceiver, startHttpsReceiver } from "../support/https-receiver.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"
import { type Deployment, startDeployment } from "../support/service-process.ts"
import { GENERATE_CAPTIONS } from "../../src/kernel/job-kinds.ts"

const VIDEOS = 30
const WORKERS = 3

describe.skipIf(postgresSkipReason !== undefined)("several worker processes on one database", () => {
  let deployment: Deployment
  let receiver: HttpsReceiver
  let clipDir: string
  let clip: SpokenClip

  beforeAll(async () => {
    clipDir = await mkdtemp(join(tmpdir(), "reelwright-many-workers-"))
    // One at a time, so that afterAll finds whatever started before a failure.
    receiver = await startHttpsReceiver()
    deployment = await startDeployment({ objectStore: true })
    clip = await makeSpokenClip({ text: "Red boats sail home.", width: 360, height: 640, fps: 30, dir: clipDir })
  })

  afterAll(async () => {
    await deployment?.close()
    await receiver?.close()
    await rm(clipDir, { recursive: true, force: true })
  })

  it(`complete ${VIDEOS} videos, each exactly once`, async () => {
    const [api, ...workers] = await Promise.all([
      deployment.startApi(),
      ...Array.from({ length: WORKERS }, () => deployment.startWorker())
    ])
    const { token, workspaceId } = await deployment.createWorkspace(api!)

    const ids: Array<string> = []
    for (let i = 0; i < VIDEOS; i++) {
      const form = new FormData()
      form.append("file", await openAsBlob(clip.path, { type: "video/mp4" }), `clip-${i}.mp4`)
      form.append("webhookUrl", `${receiver.url}/hook`)
      const created = await call(api!.baseUrl, "/v1/caption-videos", { token, form })
      expect(created.status).toBe(200)
      ids.push(created.body.id)
    }

    const generateJobs = () =>
      deployment.rows<{ video_id: string; status: string; attempts: number }>(
        "SELECT payload->>'videoId' AS video_id, status, attempts FROM jobs WHERE kind = $1",
        [GENERATE_CAPTIONS]
      )
    await deployment.until(
      async () => (await generateJobs()).filter((j) => j.status === "done").length === VIDEOS,
      "every generate job to be done",
      120_000
    )

    const videos = await deployment.rows<{ id: string; status: string; step: string }>(
      "SELECT id, status, step FROM videos WHERE workspace_id = $1",
      [workspaceId]
    )
    expect(videos.map((v) => v.id).sort()).toEqual([...ids].sort())
    expect(videos.every((v) => v.status === "completed" && v.step === "completed")).toBe(true)

    // One claim each: no job was run twice.
    const jobs = await generateJobs()
    expect(jobs.map((j) => j.video_id).sort()).toEqual([...ids].sort())
    expect(jobs.every((j) => j.attempts === 1)).toBe(true)

    const charges = await deployment.rows<{ video_id: string; reason: string; n: number }>(
      "SELECT video_id, reason, count(*)::int AS n FROM ledger WHERE workspace_id = $1 AND video_id IS NOT NULL GROUP BY 1, 2",
      [workspaceId]
    )
    expect(charges.map((c) => c.video_id).sort()).toEqual([...ids].sort())
    expect(charges.every((c) => c.reason === "captions" && c.n === 1)).toBe(true)

    const events = () =>
      deployment.rows<{ subject_id: string; name: string; state: string }>(
        "SELECT subject_id, name, state FROM outbox_events WHERE workspace_id = $1",
        [workspaceId]
      )
    await deployment.until(
      async () => (await events()).filter((e) => e.state === "delivered").length === VIDEOS,
      "every webhook to be delivered"
    )
    const recorded = await events()
    expect(recorded.map((e) => e.subject_id).sort()).toEqual([...ids].sort())
    expect(recorded.every((e) => e.name === "video.completed")).toBe(true)
    // The receiver got each video's event once.
    expect(receiver.requests.map((r) => r.headers["x-service-video-id"]).sort()).toEqual([...ids].sort())
    expect(new Set(receiver.requests.map((r) => r.headers["webhook-id"])).size).toBe(VIDEOS)

    // Each machine generated some of the videos.
    for (const worker of workers) expect(worker.log()).toContain("step transcribing done")
  })
})
