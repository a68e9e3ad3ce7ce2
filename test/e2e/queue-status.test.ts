// The operator's view of the job queue: GET /admin/queue (`reelwright queue`) and the retry of a dead job
// (`reelwright jobs:retry`), with the admin token only. No worker runs: the jobs are put in place through
// the queue itself, so each stays where the test left it.
import { randomUUID } from "node:crypto"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue, type Lane } from "../../domain/ports/job-queue.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { aVideo } from "../contract/fixtures.ts"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { cliJson, runCli } from "../support/cli.ts"
import { call } from "../support/http-client.ts"

let app: TestApp

beforeAll(async () => {
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await app?.close()
})

/** A job of the lane due `agoMs` ago; its id. */
const enqueue = (lane: Lane, agoMs: number, payload: unknown = {}) =>
  app.runtime.runPromise(Effect.gen(function*() {
    const job = yield* (yield* JobQueue).enqueue({ lane, kind: "test.job", payload, runAt: Date.now() - agoMs, dedupeKey: null })
    return Option.getOrThrow(job).id
  }))

const claim = (lane: Lane, claimedBy: string) =>
  app.runtime.runPromise(Effect.flatMap(JobQueue, (queue) => queue.claim(lane, 60_000, claimedBy)).pipe(Effect.map(Option.getOrThrow)))

const kill = (id: string) => app.runtime.runPromise(Effect.flatMap(JobQueue, (queue) => queue.kill(id, "gave up")))

const status = async () => {
  const answer = await call(app.baseUrl, "/admin/queue", { token: ADMIN_TOKEN })
  expect(answer.status).toBe(200)
  return answer.body
}

const retry = (id: string, token = ADMIN_TOKEN) => call(app.baseUrl, `/admin/jobs/${id}/retry`, { token, json: {} })

describe("queue status", () => {
  it("shows a running job with its holder and its video's step, and a queued job as ready with its age", async () => {
    const empty = { ready: 0, running: 0, scheduled: 0, dead: 0, oldestReadyAgeSeconds: null }
    expect(await status()).toEqual({ lanes: [{ lane: "media", ...empty }, { lane: "webhooks", ...empty }], running: [] })

    const { workspaceId } = await app.createWorkspace()
    const video = aVideo(workspaceId, { step: "transcribing" })
    await app.runtime.runPromise(Effect.flatMap(VideoStore, (videos) => videos.insert(video)))
    const held = await enqueue("media", 200_000, { videoId: video.id })
    const claimed = await claim("media", "worker-host:4242")
    expect(claimed.id).toBe(held)
    await enqueue("media", 90_000)
    await enqueue("media", -3_600_000)

    const seen = await status()
    expect(seen.lanes[0]).toMatchObject({ lane: "media", ready: 1, running: 1, scheduled: 1, dead: 0 })
    expect(seen.lanes[0].oldestReadyAgeSeconds).toBeGreaterThanOrEqual(90)
    expect(seen.lanes[0].oldestReadyAgeSeconds).toBeLessThan(120)
    expect(seen.lanes[1]).toEqual({ lane: "webhooks", ...empty })
    expect(seen.running).toEqual([{
      jobId: held,
      kind: "test.job",
      lane: "media",
      attempt: 1,
      claimedBy: "worker-host:4242",
      leaseExpiresAt: new Date(claimed.lockedUntil!).toISOString(),
      videoId: video.id,
      step: "transcribing"
    }])

    // The CLI answers the same.
    const printed = await cliJson(app.baseUrl, ["queue"], { ADMIN_TOKEN })
    expect(printed.running).toEqual(seen.running)
    expect(printed.lanes.map((l: { lane: string; ready: number }) => [l.lane, l.ready])).toEqual([["media", 1], ["webhooks", 0]])
  })

  it("counts a dead job, and jobs:retry queues it again, due now; another job's retry is refused", async () => {
    const viaCli = await enqueue("webhooks", 0)
    const viaHttp = await enqueue("webhooks", 0)
    await claim("webhooks", "worker-host:4242")
    await kill(viaCli)
    await kill(viaHttp)
    expect((await status()).lanes[1]).toMatchObject({ lane: "webhooks", ready: 0, dead: 2 })

    const before = Date.now()
    const requeued = await cliJson(app.baseUrl, ["jobs:retry", "--id", viaCli], { ADMIN_TOKEN })
    expect(requeued).toMatchObject({ jobId: viaCli, status: "queued" })
    expect(Date.parse(requeued.runAt)).toBeGreaterThanOrEqual(before)
    expect((await retry(viaHttp)).body).toMatchObject({ jobId: viaHttp, status: "queued" })
    expect((await status()).lanes[1]).toMatchObject({ lane: "webhooks", ready: 2, running: 0, dead: 0 })
    const job = await app.runtime.runPromise(Effect.flatMap(JobQueue, (queue) => queue.get(viaCli)))
    expect(Option.map(job, (j) => [j.status, j.attempts])).toEqual(Option.some(["queued", 0]))

    // Queued now, so not dead: a conflict that says what it is.
    const again = await retry(viaHttp)
    expect(again.status).toBe(409)
    expect(again.body.error.message).toContain("queued")
    const refused = await runCli(app.baseUrl, ["jobs:retry", "--id", viaCli], { ADMIN_TOKEN })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("queued")
    expect((await retry(randomUUID())).status).toBe(404)
  })

  it("is the admin's only", async () => {
    const { token } = await app.createWorkspace()
    expect((await call(app.baseUrl, "/admin/queue", { token })).status).toBe(401)
    expect((await call(app.baseUrl, "/admin/queue")).status).toBe(401)
    const dead = await enqueue("media", 0)
    await kill(dead)
    expect((await retry(dead, token)).status).toBe(401)
    const stillDead = await app.runtime.runPromise(Effect.flatMap(JobQueue, (queue) => queue.get(dead)))
    expect(Option.map(stillDead, (j) => j.status)).toEqual(Option.some("dead"))
  })
})
