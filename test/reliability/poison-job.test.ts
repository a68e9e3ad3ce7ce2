// A job that can never finish must not run forever nor keep the customer's credits: after
// MAX_CRASHES crashes it goes dead, the video fails with an error, its charges are refunded and
// video.failed is recorded once. Two real ways to crash: the worker's handler dies (the stored source
// vanished from the bucket), and the worker machine dies (kill -9) after each claim of a render.
import { beforeAll, describe, expect, it } from "vitest"
import { openAsBlob } from "node:fs"
import { Effect } from "effect"
import { JOBS_CHANNEL } from "../../adapters/postgres/pg-job-wakeups.ts"
import { S3BlobStoreLive } from "../../adapters/storage/s3-blob-store.ts"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { MAX_CRASHES } from "../../src/kernel/job-runner.ts"
import { GenerateCaptions, RenderVideo } from "../../src/kernel/job-catalogue.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { useDeployment } from "../support/deployment-fixture.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"
import { testS3Config } from "../support/s3-server.ts"
import type { ServiceProcess } from "../support/service-process.ts"

/** Short leases: a killed worker's job is claimable again two seconds later. */
const WORKER_ENV = { JOB_LEASE_SECONDS: "2" }

interface Job {
  readonly status: string
  readonly attempts: number
  readonly last_error: string | null
}

describe.skipIf(postgresSkipReason !== undefined)("a job that crashes every time", () => {
  const env = useDeployment("The old clock struck nine.")
  let api: ServiceProcess
  let token: string

  beforeAll(async () => {
    api = await env.deployment.startApi()
    token = (await env.deployment.createWorkspace(api)).token
  })

  /** Uploads the clip; no worker runs yet, so the video waits in `queued`. */
  const createVideo = async (options: { readonly render?: boolean } = {}): Promise<string> => {
    const form = new FormData()
    form.append("file", await openAsBlob(env.clip.path, { type: "video/mp4" }), "clip.mp4")
    if (options.render === true) form.append("render", "{}")
    form.append("webhookUrl", `${env.receiver.url}/hook`)
    const created = await call(api.baseUrl, "/v1/caption-videos", { token, form })
    expect(created.status).toBe(200)
    return created.body.id
  }

  const jobOf = (kind: string, videoId: string) =>
    env.deployment.rows<Job>(
      "SELECT status, attempts, last_error FROM jobs WHERE kind = $1 AND payload->>'videoId' = $2",
      [kind, videoId]
    ).then((rows) => rows[0])

  const ledgerOf = (videoId: string) =>
    env.deployment.rows<{ reason: string; amount: number }>(
      "SELECT reason, amount::int AS amount FROM ledger WHERE video_id = $1 ORDER BY seq",
      [videoId]
    )

  /** The video ended failed, refunded to zero, with exactly one video.failed in the outbox, delivered. */
  const expectFailedAndRefunded = async (videoId: string, message: RegExp) => {
    const video = await waitForVideo(api.baseUrl, token, videoId, (v) => v.status !== "processing", 30_000)
    expect(video.status).toBe("failed")
    expect(video.error).toMatch(message)
    const ledger = await ledgerOf(videoId)
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(0)
    const events = () =>
      env.deployment.rows<{ name: string; state: string }>("SELECT name, state FROM outbox_events WHERE subject_id = $1", [videoId])
    await env.deployment.until(async () => (await events()).some((e) => e.state === "delivered"), "video.failed to be delivered")
    expect(await events()).toEqual([{ name: "video.failed", state: "delivered" }])
    const received = env.receiver.requests.filter((r) => r.headers["x-service-video-id"] === videoId)
    expect(received.map((r) => r.headers["x-service-event"])).toEqual(["video.failed"])
    return ledger
  }

  it("goes dead when its handler dies each time: the source blob was deleted from the bucket", async () => {
    const id = await createVideo()
    const [file] = await env.deployment.rows<{ blob_key: string }>(
      "SELECT f.blob_key FROM files f JOIN videos v ON v.source_file_id = f.id WHERE v.id = $1",
      [id]
    )
    await Effect.runPromise(
      Effect.flatMap(BlobStore, (blobs) => blobs.remove(file!.blob_key)).pipe(
        Effect.provide(S3BlobStoreLive(testS3Config(env.deployment.s3Endpoint!)))
      )
    )

    const worker = await env.deployment.startWorker(WORKER_ENV)
    // Crashes are retried after a backoff of 5 s, then 10 s; the third one is the last. The test moves
    // each retry's time up to now (a test clock's job) and wakes the workers as the queue does.
    const generateJob = () => jobOf(GenerateCaptions.kind, id)
    const bringRetryForward = () =>
      env.deployment.rows(
        `WITH due AS (
           UPDATE jobs SET run_at = (extract(epoch FROM clock_timestamp()) * 1000)::bigint
           WHERE kind = $1 AND payload->>'videoId' = $2 AND status = 'queued' AND attempts > 0
             AND run_at > (extract(epoch FROM clock_timestamp()) * 1000)::bigint
           RETURNING lane)
         SELECT pg_notify($3, lane) FROM due`,
        [GenerateCaptions.kind, id, JOBS_CHANNEL]
      )
    await env.deployment.until(async () => {
      await bringRetryForward()
      return (await generateJob())?.status === "dead"
    }, "the job to go dead", 60_000)
    const job = await generateJob()
    expect(job?.attempts).toBe(MAX_CRASHES)
    expect(job?.last_error).toContain("no blob at key")
    expect(await expectFailedAndRefunded(id, /Captioning stopped after repeated internal errors/)).toEqual([])
    expect(await worker.stop()).toBe(0)
  })

  it("goes dead when the worker running it is killed after every claim, and refunds what it charged", async () => {
    // The render: it charges as it starts, and a slow preset keeps each claim busy encoding.
    const id = await createVideo({ render: true })
    const renderJob = () => jobOf(RenderVideo.kind, id)
    for (let claim = 1; claim <= MAX_CRASHES; claim++) {
      const worker = await env.deployment.startWorker({ ...WORKER_ENV, X264_PRESET: "veryslow" })
      await env.deployment.until(async () => ((await renderJob())?.attempts ?? 0) >= claim, `render claim ${claim}`)
      // The first machine dies once the render is charged.
      if (claim === 1) {
        await env.deployment.until(async () => (await ledgerOf(id)).some((e) => e.reason === "render"), "the render charge")
      }
      await worker.kill()
      // Killed while the job was still its own.
      expect(await renderJob()).toMatchObject({ status: "running", attempts: claim })
    }

    // The next claim finds that every earlier claimer died, and ends the job instead of running it.
    const last = await env.deployment.startWorker(WORKER_ENV)
    await env.deployment.until(async () => (await renderJob())?.status === "dead", "the job to go dead")
    expect(await renderJob()).toMatchObject({
      attempts: MAX_CRASHES + 1,
      last_error: `the worker stopped ${MAX_CRASHES} times while running this job`
    })
    // The failed work is the whole creation: both charges come back.
    const ledger = await expectFailedAndRefunded(id, /Rendering stopped after repeated internal errors/)
    expect(ledger.map((e) => e.reason)).toEqual(["captions", "render", "refund: captions", "refund: render"])
    expect(await last.stop()).toBe(0)
  })
})
