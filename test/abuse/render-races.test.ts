// Thirty renders of one video at once, on both stores: the video is held from the check to the change,
// so one starts the export (one job, one charge) and every other one is a 409 conflict, never a 500.
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { RenderVideo } from "../../src/kernel/job-catalogue.ts"
import type { TestApp } from "../support/app.ts"
import { STORES, startAppOn } from "../support/app-on-store.ts"
import { completedVideo } from "../support/completed-video.ts"
import { call } from "../support/http-client.ts"

const AT_ONCE = 30

describe.each(STORES)("renders of one video at once (%s)", (store) => {
  let app: TestApp
  beforeAll(async () => {
    app = await startAppOn(store, { worker: false })
  })
  afterAll(async () => {
    await app?.close()
  })

  it(`start one export of ${AT_ONCE}, and each other one is a 409 conflict`, async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 10_000 })
    const video = await app.runtime.runPromise(completedVideo(workspaceId))
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, () => call(app.baseUrl, `/v1/videos/${video.id}/render`, { token, json: {} }))
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(AT_ONCE - 1).fill(409)])
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toEqual({
        error: { code: "conflict", message: "Cannot render now: an export is already running.", requestId: refused.headers.get("x-request-id") }
      })
    }
    expect(answers.find((a) => a.status === 200)!.body.export).toMatchObject({ status: "rendering" })

    const [entries, renderJobs] = await app.runtime.runPromise(Effect.gen(function*() {
      const queue = yield* JobQueue
      const claimed = []
      for (let job = yield* queue.claim("media", 60_000, "test-drain"); Option.isSome(job); job = yield* queue.claim("media", 60_000, "test-drain")) {
        claimed.push(job.value)
      }
      return [yield* (yield* Ledger).list(workspaceId), claimed.filter((job) => job.kind === RenderVideo.kind)] as const
    }))
    expect(entries.filter((entry) => entry.amount < 0).map((entry) => entry.reason)).toEqual(["render"])
    expect(renderJobs.map((job) => job.payload)).toEqual([expect.objectContaining({ videoId: video.id })])
  })
})
