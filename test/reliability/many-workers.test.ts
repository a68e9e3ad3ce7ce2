// Three worker machines and one API on one database and one bucket: a dozen videos, each generated
// exactly once, charged once and announced once, and every worker takes a share.
import { describe, expect, it } from "vitest"
import { openAsBlob } from "node:fs"
import { call } from "../support/http-client.ts"
import { useDeployment } from "../support/deployment-fixture.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"
import { GenerateCaptions } from "../../src/kernel/job-catalogue.ts"

// Four videos a worker on average: enough for the claims to race and for each machine to get some.
const VIDEOS = 12
const WORKERS = 3

describe.skipIf(postgresSkipReason !== undefined)("several worker processes on one database", () => {
  const env = useDeployment("Red boats sail home.")

  it(`complete ${VIDEOS} videos, each exactly once`, async () => {
    const [api, ...workers] = await Promise.all([
      env.deployment.startApi(),
      ...Array.from({ length: WORKERS }, () => env.deployment.startWorker())
    ])
    const { token, workspaceId } = await env.deployment.createWorkspace(api!)

    const ids: Array<string> = []
    for (let i = 0; i < VIDEOS; i++) {
      const form = new FormData()
      form.append("file", await openAsBlob(env.clip.path, { type: "video/mp4" }), `clip-${i}.mp4`)
      form.append("webhookUrl", `${env.receiver.url}/hook`)
      const created = await call(api!.baseUrl, "/v1/caption-videos", { token, form })
      expect(created.status).toBe(200)
      ids.push(created.body.id)
    }

    const generateJobs = () =>
      env.deployment.rows<{ video_id: string; status: string; attempts: number }>(
        "SELECT payload->>'videoId' AS video_id, status, attempts FROM jobs WHERE kind = $1",
        [GenerateCaptions.kind]
      )
    await env.deployment.until(
      async () => (await generateJobs()).filter((j) => j.status === "done").length === VIDEOS,
      "every generate job to be done",
      120_000
    )

    const videos = await env.deployment.rows<{ id: string; status: string; step: string }>(
      "SELECT id, status, step FROM videos WHERE workspace_id = $1",
      [workspaceId]
    )
    expect(videos.map((v) => v.id).sort()).toEqual([...ids].sort())
    expect(videos.every((v) => v.status === "completed" && v.step === "completed")).toBe(true)

    // One claim each: no job was run twice.
    const jobs = await generateJobs()
    expect(jobs.map((j) => j.video_id).sort()).toEqual([...ids].sort())
    expect(jobs.every((j) => j.attempts === 1)).toBe(true)

    const charges = await env.deployment.rows<{ video_id: string; reason: string; n: number }>(
      "SELECT video_id, reason, count(*)::int AS n FROM ledger WHERE workspace_id = $1 AND video_id IS NOT NULL GROUP BY 1, 2",
      [workspaceId]
    )
    expect(charges.map((c) => c.video_id).sort()).toEqual([...ids].sort())
    expect(charges.every((c) => c.reason === "captions" && c.n === 1)).toBe(true)

    const events = () =>
      env.deployment.rows<{ subject_id: string; name: string; state: string }>(
        "SELECT subject_id, name, state FROM outbox_events WHERE workspace_id = $1",
        [workspaceId]
      )
    await env.deployment.until(
      async () => (await events()).filter((e) => e.state === "delivered").length === VIDEOS,
      "every webhook to be delivered"
    )
    const recorded = await events()
    expect(recorded.map((e) => e.subject_id).sort()).toEqual([...ids].sort())
    expect(recorded.every((e) => e.name === "video.completed")).toBe(true)
    // The receiver got each video's event once.
    expect(env.receiver.requests.map((r) => r.headers["x-service-video-id"]).sort()).toEqual([...ids].sort())
    expect(new Set(env.receiver.requests.map((r) => r.headers["webhook-id"])).size).toBe(VIDEOS)

    // Each machine generated some of the videos.
    for (const worker of workers) expect(worker.log()).toContain("step transcribing done")
  })
})
