// A worker machine dies (kill -9, its ffmpeg and pocketsphinx with it) in the middle of a job. Another
// worker takes the job over once the lease lapses: the video completes, each item is charged once,
// and the receiver hears of the completion once. Where the two share a disk, the scratch the killed
// one left is gone once the job is taken over.
import { beforeAll, describe, expect, it } from "vitest"
import { openAsBlob } from "node:fs"
import { mkdtemp, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { GenerateCaptions, RenderVideo } from "../../src/kernel/job-catalogue.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { useDeployment } from "../support/deployment-fixture.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"
import type { ServiceProcess } from "../support/service-process.ts"

/** Short leases: a killed worker's job is claimable again three seconds later. */
const WORKER_ENV = { JOB_LEASE_SECONDS: "3" }

describe.skipIf(postgresSkipReason !== undefined)("a worker killed in the middle of a job", () => {
  const env = useDeployment("Every lantern on the harbour wall was lit at dusk.")
  let api: ServiceProcess
  let token: string

  beforeAll(async () => {
    api = await env.deployment.startApi()
    token = (await env.deployment.createWorkspace(api)).token
  })

  const createVideo = async (options: { readonly render: boolean }): Promise<string> => {
    const form = new FormData()
    form.append("file", await openAsBlob(env.clip.path, { type: "video/mp4" }), "clip.mp4")
    if (options.render) form.append("render", "{}")
    form.append("webhookUrl", `${env.receiver.url}/hook`)
    const created = await call(api.baseUrl, "/v1/caption-videos", { token, form })
    expect(created.status).toBe(200)
    return created.body.id
  }

  const jobOf = (kind: string, videoId: string) =>
    env.deployment.rows<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM jobs WHERE kind = $1 AND payload->>'videoId' = $2",
      [kind, videoId]
    ).then((rows) => rows[0])

  const jobIdOf = (kind: string, videoId: string) =>
    env.deployment.rows<{ id: string }>("SELECT id FROM jobs WHERE kind = $1 AND payload->>'videoId' = $2", [kind, videoId])
      .then((rows) => rows[0]!.id)

  const chargesOf = (videoId: string) =>
    env.deployment.rows<{ reason: string; amount: number }>(
      "SELECT reason, amount::int AS amount FROM ledger WHERE video_id = $1 ORDER BY seq",
      [videoId]
    )

  /**
   * Kills worker A once `charged` is in the ledger (the job is under way) and starts worker B; then
   * the video must complete, the job in B's claim, the second.
   */
  const killAndReplace = async (options: {
    readonly videoId: string
    readonly kind: string
    readonly charged: string
    readonly workerA: ServiceProcess
    readonly step: string
    /** Both workers' DATA_DIR, when they share a disk. */
    readonly sharedDataDir?: string
  }) => {
    const { videoId, kind } = options
    await env.deployment.until(
      async () => (await chargesOf(videoId)).some((e) => e.reason === options.charged),
      `worker A to charge for ${options.charged}`
    )
    expect((await call(api.baseUrl, `/v1/videos/${videoId}`, { token })).body).toMatchObject({
      status: "processing",
      step: options.step
    })
    expect(await jobOf(kind, videoId)).toEqual({ status: "running", attempts: 1 })
    await options.workerA.kill()
    const shared = options.sharedDataDir
    if (shared !== undefined) {
      // What the killed worker left behind: its job's scratch (the source, the audio).
      expect(await readdir(join(shared, "work", "jobs"))).toEqual([await jobIdOf(kind, videoId)])
    }
    const workerB = await env.deployment.startWorker(shared === undefined ? WORKER_ENV : { ...WORKER_ENV, DATA_DIR: shared })

    const done = await waitForVideo(api.baseUrl, token, videoId, (v) => v.status !== "processing", 90_000)
    // The error, if any, says why the takeover failed.
    expect({ status: done.status, step: done.step, error: done.error }).toEqual({ status: "completed", step: "completed", error: undefined })
    // B marks the job done right after the video.
    await env.deployment.until(async () => (await jobOf(kind, videoId))?.status === "done", "the job to be done")
    expect(await jobOf(kind, videoId)).toEqual({ status: "done", attempts: 2 })
    return workerB
  }

  /** Exactly one video.completed, delivered: one webhook-id however often it was sent. */
  const expectOneCompletion = async (videoId: string) => {
    const events = () =>
      env.deployment.rows<{ name: string; state: string }>("SELECT name, state FROM outbox_events WHERE subject_id = $1", [videoId])
    await env.deployment.until(async () => (await events()).some((e) => e.state === "delivered"), "the webhook to be delivered")
    expect(await events()).toEqual([{ name: "video.completed", state: "delivered" }])
    const received = env.receiver.requests.filter((r) => r.headers["x-service-video-id"] === videoId)
    expect(new Set(received.map((r) => r.headers["x-service-event"]))).toEqual(new Set(["video.completed"]))
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1)
    expect(JSON.parse(received[0]!.body)).toMatchObject({ event: "video.completed", video: { id: videoId, status: "completed" } })
  }

  it("while rendering: another worker finishes the render; one render charge, one video.completed", async () => {
    // A slow preset keeps the encode running long enough to be caught in the act.
    const workerA = await env.deployment.startWorker({ ...WORKER_ENV, X264_PRESET: "veryslow" })
    const id = await createVideo({ render: true })
    const workerB = await killAndReplace({ videoId: id, kind: RenderVideo.kind, charged: "render", workerA, step: "rendering" })
    expect(workerB.log()).toContain("render encoded")
    expect((await chargesOf(id)).map((e) => e.reason)).toEqual(["captions", "render"])
    expect((await chargesOf(id)).every((e) => e.amount < 0)).toBe(true)
    await expectOneCompletion(id)
    await workerB.stop()
  })

  it("while transcribing: another worker on the same disk resumes the captions and clears the scratch left; one captions charge, one video.completed", async () => {
    const sharedDataDir = await mkdtemp(join(tmpdir(), "reelwright-shared-disk-"))
    const workerA = await env.deployment.startWorker({ ...WORKER_ENV, DATA_DIR: sharedDataDir })
    const id = await createVideo({ render: false })
    const workerB = await killAndReplace({
      videoId: id,
      kind: GenerateCaptions.kind,
      charged: "captions",
      workerA,
      step: "transcribing",
      sharedDataDir
    })
    expect(workerB.log()).toContain("step transcribing done")
    // The run's own scratch goes in a finalizer, just after the job is marked done.
    await env.deployment.until(
      async () => (await readdir(join(sharedDataDir, "work", "jobs"))).length === 0,
      "the job's scratch to be cleared"
    )
    expect((await chargesOf(id)).map((e) => e.reason)).toEqual(["captions"])
    await expectOneCompletion(id)
    await workerB.stop()
    await rm(sharedDataDir, { recursive: true, force: true })
  })
})
