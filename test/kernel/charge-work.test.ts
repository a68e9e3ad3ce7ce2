// Charges are made once per item of a piece of work, whatever retries happen, and refunded on failure.
import { expect, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { newCaptionVideo } from "../../domain/video.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { videoWork } from "../../src/kernel/video-work.ts"
import { chargeWork } from "../../src/shared/credits/charge-work.ts"

const TestLayer = Layer.merge(MemoryStoresLive, ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: "/tmp" }))

const video = newCaptionVideo({
  id: "00000000-0000-4000-8000-000000000001",
  workspaceId: "ws-charge",
  templateId: -1,
  renderOptions: null,
  webhookUrl: null,
  editorToken: "ed",
  source: { url: "https://media.example.com/a.mp4" },
  at: new Date(0).toISOString()
})

layer(TestLayer)("chargeWork", (it) => {
  it.effect("charges once however often a retried job charges, refunds on failure, and fails the work when credits are short", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger
      yield* ledger.post({ id: "top-up", workspaceId: video.workspaceId, key: "top-up", amount: 100, reason: "top up", operation: "top-up", workKey: null, videoId: null, at: "" })
      yield* (yield* VideoStore).insert(video)
      const short = "Top up credits."
      yield* chargeWork(video, "captions", 30, short)
      yield* chargeWork(video, "captions", 30, short)
      expect(yield* ledger.balance(video.workspaceId)).toBe(70)
      const failure = yield* Effect.flip(chargeWork(video, "render", 80, short))
      expect(failure.message).toBe("insufficient credits: needs 80, has 70. Top up credits.")
      expect(yield* ledger.balance(video.workspaceId)).toBe(70)

      yield* videoWork.apply(video.id, (at) => ({ _tag: "Failed", error: "boom", at }))
      expect(yield* ledger.balance(video.workspaceId)).toBe(100)
      expect((yield* ledger.list(video.workspaceId)).map((e) => e.amount)).toEqual([100, -30, 30])
    }))
})
