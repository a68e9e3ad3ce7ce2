// The render operation's charge under concurrency, on both store adapters: 50 parallel requests on a
// balance that covers 20 start exactly 20 exports, refuse the rest with InsufficientCredits, and the
// ledger adds up. (The HTTP version, in memory, is in test/e2e/workspace-account.test.ts.)
import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { renderCredits } from "../../domain/pricing.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { renderVideoOperation } from "../../src/ops/render/render-video.ts"
import { PgTestStores, postgresSkipReason } from "../support/pg-test-db.ts"
import { aVideo, aWorkspace, anEntry } from "./fixtures.ts"

const config = ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: "/tmp" })

const fiftyOnTwenty = Effect.gen(function*() {
  const workspace = aWorkspace({ plan: "pro" })
  const perRender = renderCredits(60, 30)
  const ledger = yield* Ledger
  yield* ledger.post(anEntry(workspace.id, 20 * perRender))
  const videos = yield* VideoStore
  const ids = yield* Effect.forEach(Array.from({ length: 50 }), () => {
    const video = aVideo(workspace.id, { status: "completed", step: "completed", generated: true, durationSeconds: 60, width: 720, height: 1280 })
    return Effect.as(videos.insert(video), video.id)
  })
  const results = yield* Effect.all(
    ids.map((id) =>
      Effect.either(renderVideoOperation.handle({ id, format: undefined, frameRate: undefined, webhookUrl: undefined }))
    ),
    { concurrency: "unbounded" }
  ).pipe(Effect.provideService(CurrentWorkspace, workspace))
  const accepted = results.flatMap((r) => (Either.isRight(r) ? [r.right.id] : []))
  expect(accepted).toHaveLength(20)
  expect(results.filter((r) => Either.isLeft(r) && r.left._tag === "InsufficientCredits")).toHaveLength(30)
  expect(yield* ledger.balance(workspace.id)).toBe(0)
  const entries = yield* ledger.list(workspace.id)
  expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0)
  expect(new Set(entries.filter((e) => e.operation === "render").map((e) => e.videoId))).toEqual(new Set(accepted))
  const exporting = yield* Effect.forEach(ids, (id) => Effect.map(videos.getById(id), (v) => v._tag === "Some" && v.value.export !== null))
  expect(ids.filter((_, i) => exporting[i])).toEqual(ids.filter((id) => accepted.includes(id)))
})

describe("the render's charge of a trimmed video", () => {
  it.scoped("is on the output's length: 65 s of source with 10 s cut is charged as 55 s", () =>
    Effect.gen(function*() {
      const workspace = aWorkspace({ plan: "pro" })
      const ledger = yield* Ledger
      yield* ledger.post(anEntry(workspace.id, 1_000))
      const videos = yield* VideoStore
      const trimmed = aVideo(workspace.id, { status: "completed", step: "completed", generated: true, durationSeconds: 65, cutSeconds: 10, width: 720, height: 1280 })
      const whole = aVideo(workspace.id, { status: "completed", step: "completed", generated: true, durationSeconds: 65, width: 720, height: 1280 })
      yield* videos.insert(trimmed)
      yield* videos.insert(whole)
      const render = (id: string) =>
        renderVideoOperation.handle({ id, format: undefined, frameRate: undefined, webhookUrl: undefined }).pipe(Effect.provideService(CurrentWorkspace, workspace))
      expect((yield* render(trimmed.id)).duration).toBe(55)
      yield* render(whole.id)
      const charged = (id: string) => Effect.map(ledger.list(workspace.id), (entries) => entries.filter((e) => e.videoId === id && e.operation === "render").reduce((sum, e) => sum - e.amount, 0))
      expect(renderCredits(55, 30)).toBeLessThan(renderCredits(65, 30))
      expect(yield* charged(trimmed.id)).toBe(renderCredits(55, 30))
      expect(yield* charged(whole.id)).toBe(renderCredits(65, 30))
    }).pipe(Effect.provide(Layer.merge(MemoryStoresLive, config))))
})

describe("render charges under concurrency", () => {
  it.scoped("memory: exactly 20 of 50 parallel renders start on a balance that covers 20", () =>
    fiftyOnTwenty.pipe(Effect.provide(Layer.merge(MemoryStoresLive, config))))

  it.scopedLive.skipIf(postgresSkipReason !== undefined)(
    "postgres: exactly 20 of 50 parallel renders start on a balance that covers 20",
    () => fiftyOnTwenty.pipe(Effect.provide(Layer.merge(PgTestStores(), config)))
  )
})
