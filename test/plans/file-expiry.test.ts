// Files expire with the plan's retention, driven by TestClock: a media link resolves on the last day
// and answers 410 (the JSON error shape) from the day the retention ends, while an unknown or deleted
// link stays 404; a plan change re-dates the files. A caption video whose source expired cannot be
// rendered: refused at request time with 409 "source expired" and nothing charged, and a render that
// waited in the queue past the expiry fails the same way and is refunded; the video record stays.
// The worker's periodic sweep deletes expired files' bytes; their links keep answering 410.
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { afterAll, expect, layer } from "@effect/vitest"
import { Clock, Effect, Layer, Option, TestClock } from "effect"
import { existsSync, rmSync } from "node:fs"
import { mkdir, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { serveMedia } from "../../adapters/http/media-route.ts"
import { FaceApiFinderLive } from "../../adapters/media/face-api-finder.ts"
import { FfmpegEngineLive } from "../../adapters/media/ffmpeg-engine.ts"
import { FfmpegTimelineRendererLive } from "../../adapters/media/ffmpeg-timeline-renderer.ts"
import { CanvasAnimatorLive } from "../../adapters/animation/canvas-animator.ts"
import { CanvasFootageMakerLive } from "../../adapters/gameplay/canvas-footage-maker.ts"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { FsBlobStoreLive } from "../../adapters/storage/fs-blob-store.ts"
import { BUILT_IN_TEMPLATES } from "../../domain/captions.ts"
import { FileStore, type StoredFile } from "../../domain/ports/file-store.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { type Workspace, WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import type { Plan } from "../../domain/plans.ts"
import { newCaptionVideo } from "../../domain/video.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { fileUrl } from "../../src/kernel/links.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { videoWork } from "../../src/kernel/video-work.ts"
import { scheduleFileSweeps, sweepExpiredFilesJob } from "../../src/ops/files/sweep-expired-files.job.ts"
import { storeFile } from "../../src/shared/media/store-file.ts"
import { setPlan } from "../../src/ops/plans/set-plan.ts"
import { renderJob } from "../../src/ops/render/render-video.job.ts"
import { renderVideoOperation } from "../../src/ops/render/render-video.ts"
import { getVideo } from "../../src/ops/videos/get-video.ts"
import { createWorkspaceNow } from "../../src/ops/workspaces/create-workspace.ts"

const DAY_MS = 24 * 60 * 60 * 1000
const HOUR_MS = 60 * 60 * 1000
const BASE_URL = "http://127.0.0.1:1"
const dir = join(tmpdir(), `reelwright-file-expiry-${process.pid}`)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TestLayer = Layer.mergeAll(
  MemoryStoresLive,
  FsBlobStoreLive(join(dir, "blobs")),
  FfmpegEngineLive,
  FfmpegTimelineRendererLive,
  FaceApiFinderLive,
  CanvasAnimatorLive,
  CanvasFootageMakerLive,
  ServiceConfig.layer({ baseUrl: BASE_URL, workDir: join(dir, "work") })
)

const worker = makeJobRunner([renderJob])

/** The media route alone, asked in this fiber: its Clock is the TestClock. */
const media = HttpRouter.empty.pipe(HttpRouter.get("/media/:token/:name", serveMedia))
const fetchMedia = (url: string) =>
  media.pipe(
    Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(new Request(url))),
    Effect.map((response) => HttpServerResponse.toWeb(response)),
    Effect.flatMap((response) =>
      Effect.promise(async () => ({ status: response.status, body: new Uint8Array(await response.arrayBuffer()) })))
  )
const json = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body))

/** Ten bytes stored for a workspace on `plan`, now. */
const storeBytes = (workspace: Pick<Workspace, "id" | "plan">) =>
  Effect.gen(function*() {
    yield* Effect.promise(() => mkdir(dir, { recursive: true }))
    const path = join(dir, `source-${Math.random()}.mp4`)
    yield* Effect.promise(() => writeFile(path, Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])))
    return yield* storeFile(workspace, { path, name: "talk.mp4", contentType: "video/mp4" })
  })

const aWorkspaceOn = (plan: Plan, credits: number) =>
  Effect.gen(function*() {
    const { workspaceId } = yield* createWorkspaceNow({ name: "Expiry", ownerEmail: "owner@expiry.test", plan, credits })
    return Option.getOrThrow(yield* (yield* WorkspaceStore).get(workspaceId))
  })

const linkOf = (file: StoredFile) => fileUrl(BASE_URL, file)

/** Admin operations never read the current workspace; their handler types still name it (as every operation's do). */
const asAdmin = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect as Effect.Effect<A, E, Exclude<R, CurrentWorkspace>>

layer(TestLayer, { timeout: "60 seconds" })("file expiry", (it) => {
  it.effect("a link resolves on the plan's last day and answers 410 from the day its retention ends; unknown and deleted links stay 404", () =>
    Effect.gen(function*() {
      const stored = yield* storeBytes({ id: "ws-links", plan: "free" })
      const deleted = yield* storeBytes({ id: "ws-links", plan: "free" })
      yield* (yield* FileStore).markDeleted(deleted.id, new Date(yield* Clock.currentTimeMillis).toISOString())

      // free keeps files 7 days: day 6, and the last millisecond of day 7, still resolve.
      yield* TestClock.adjust(6 * DAY_MS)
      expect(yield* fetchMedia(linkOf(stored))).toEqual({ status: 200, body: new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) })
      yield* TestClock.adjust(DAY_MS - 1)
      expect((yield* fetchMedia(linkOf(stored))).status).toBe(200)

      yield* TestClock.adjust(1)
      const gone = yield* fetchMedia(linkOf(stored))
      expect(gone.status).toBe(410)
      expect(json(gone.body)).toEqual({
        error: {
          code: "expired",
          message: "This file expired: it passed the workspace plan's file retention and is no longer stored."
        }
      })
      const deletedAnswer = yield* fetchMedia(linkOf(deleted))
      expect([deletedAnswer.status, json(deletedAnswer.body).error.code]).toEqual([404, "not_found"])
      expect((yield* fetchMedia(linkOf({ ...stored, token: "no-such-token" }))).status).toBe(404)
    }))

  it.effect("a plan change re-dates the workspace's files from their upload", () =>
    Effect.gen(function*() {
      const workspace = yield* aWorkspaceOn("creator", 0)
      const file = yield* storeBytes(workspace)
      const planOf = (plan: Plan) => asAdmin(setPlan.handle({ workspaceId: workspace.id, plan }))
      yield* TestClock.adjust(30 * DAY_MS)
      expect((yield* fetchMedia(linkOf(file))).status).toBe(410)
      // pro keeps files: the expired one resolves again.
      yield* planOf("pro")
      expect((yield* fetchMedia(linkOf(file))).status).toBe(200)
      expect(Option.getOrThrow(yield* (yield* FileStore).get(file.id)).expiresAt).toBeNull()
      // free keeps them 7 days from the upload, 30 days ago.
      yield* planOf("free")
      expect((yield* fetchMedia(linkOf(file))).status).toBe(410)
    }))

  it.effect("a render of an expired source is refused (409, nothing charged), and one queued past the expiry fails and is refunded", () =>
    Effect.gen(function*() {
      const workspace = yield* aWorkspaceOn("creator", 1_000)
      const ledger = yield* Ledger
      const source = yield* storeBytes(workspace)
      const id = crypto.randomUUID()
      yield* (yield* VideoStore).insert(newCaptionVideo({
        id,
        workspaceId: workspace.id,
        templateId: BUILT_IN_TEMPLATES[0]!.id,
        renderOptions: null,
        webhookUrl: null,
        editorToken: `ed_${id}`,
        source: { fileId: source.id },
        at: new Date(yield* Clock.currentTimeMillis).toISOString()
      }))
      yield* videoWork.apply(id, (at) => ({ _tag: "SourceProbed", facts: { durationSeconds: 60, width: 720, height: 1280 }, at }))
      yield* videoWork.apply(id, (at) => ({ _tag: "Generated", at }))
      const asOwner = Effect.provideService(CurrentWorkspace, workspace)
      const render = renderVideoOperation.handle({ id, format: "standard", frameRate: 30, webhookUrl: undefined }).pipe(asOwner)

      // creator keeps files 30 days: on the last millisecond the render is taken and charged.
      yield* TestClock.adjust(30 * DAY_MS - 1)
      expect((yield* render).export).toMatchObject({ status: "rendering" })
      expect(yield* ledger.balance(workspace.id)).toBe(1_000 - 30)

      // It waited in the queue past the expiry: the job fails saying so, and the charge is refunded.
      yield* TestClock.adjust(1)
      yield* worker.drain("media")
      const failed = yield* getVideo.handle({ id }).pipe(asOwner)
      expect(failed.status).toBe("failed")
      expect(failed.error).toContain("source expired")
      expect(failed.export).toMatchObject({ status: "failed" })
      expect(yield* ledger.balance(workspace.id)).toBe(1_000)

      // Asked again now, the render is refused before anything is charged; the record stays.
      const entries = (yield* ledger.list(workspace.id)).length
      const refused = yield* Effect.flip(render)
      expect(refused._tag).toBe("Conflict")
      expect(refused.message).toContain("source expired")
      expect((yield* ledger.list(workspace.id)).length).toBe(entries)
      expect((yield* getVideo.handle({ id }).pipe(asOwner)).id).toBe(id)
    }))

  it.effect("the periodic sweep deletes the bytes of files past their retention; their links stay 410, whatever the plan becomes", () =>
    Effect.gen(function*() {
      const onFree = yield* aWorkspaceOn("free", 0)
      const onPro = yield* aWorkspaceOn("pro", 0)
      const expiring = yield* storeBytes(onFree)
      const kept = yield* storeBytes(onPro)
      const blobThere = (file: StoredFile) => existsSync(join(dir, "blobs", file.blobKey))
      // The worker's start queues the current hour's sweep; each sweep queues the next hour's.
      const sweeper = makeJobRunner([sweepExpiredFilesJob(HOUR_MS)])
      yield* scheduleFileSweeps(HOUR_MS)
      yield* sweeper.drain("media")
      expect([blobThere(expiring), blobThere(kept)]).toEqual([true, true])

      // Expired, not yet swept: 410 already.
      yield* TestClock.adjust(7 * DAY_MS)
      expect((yield* fetchMedia(linkOf(expiring))).status).toBe(410)
      expect(blobThere(expiring)).toBe(true)

      yield* sweeper.drain("media")
      expect([blobThere(expiring), blobThere(kept)]).toEqual([false, true])
      const gone = yield* fetchMedia(linkOf(expiring))
      expect([gone.status, json(gone.body).error.code]).toEqual([410, "expired"])
      expect(Option.getOrThrow(yield* (yield* FileStore).get(expiring.id)).purgedAt).toBe(new Date(yield* Clock.currentTimeMillis).toISOString())
      expect((yield* fetchMedia(linkOf(kept))).status).toBe(200)

      // A plan that keeps files cannot bring back bytes that are gone.
      yield* asAdmin(setPlan.handle({ workspaceId: onFree.id, plan: "pro" }))
      expect((yield* fetchMedia(linkOf(expiring))).status).toBe(410)
    }))
})
