// A video's delivery log and the redeliver action, at the use-case level with TestClock: the real
// https transport and a real receiver on loopback, the webhook lane of the job runner.
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Layer, TestClock } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { OutboundClientLive } from "../../adapters/outbound/outbound-client.ts"
import { HttpsWebhookTransportLive } from "../../adapters/webhooks/https-transport.ts"
import { REDELIVERY_AFTER_MS, RETRY_WAITS_SECONDS } from "../../domain/webhooks.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { deliverWebhookJob } from "../../src/ops/webhooks/deliver-webhook.job.ts"
import { listVideoDeliveries } from "../../src/ops/webhooks/list-video-deliveries.ts"
import { redeliverWebhookEvent } from "../../src/ops/webhooks/redeliver-webhook-event.ts"
import { aWorkspace } from "../contract/fixtures.ts"
import { failedVideoEvent } from "../support/failed-video.ts"
import { httpsReceiver } from "../support/https-receiver.ts"

const worker = makeJobRunner([deliverWebhookJob])

const TestLayer = Layer.mergeAll(
  MemoryStoresLive,
  HttpsWebhookTransportLive.pipe(Layer.provide(OutboundClientLive)),
  ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: "/tmp" })
)

/** failedVideoEvent records its video in workspace "ws". */
const asOwner = Effect.provideService(CurrentWorkspace, aWorkspace({ id: "ws" }))
const asStranger = Effect.provideService(CurrentWorkspace, aWorkspace())

const deliveries = (id: string) => listVideoDeliveries.handle({ id, limit: 20, cursor: undefined }).pipe(asOwner)
const redeliver = (id: string, eventId: string) => redeliverWebhookEvent.handle({ id, eventId }).pipe(asOwner)

layer(TestLayer, { timeout: "60 seconds" })("webhook delivery log and redelivery", (it) => {
  it.scoped("logs each attempt by host only; redelivers after the window as a new series with the same id and body", () =>
    Effect.gen(function*() {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ status: 500 })
      const event = yield* failedVideoEvent(`${receiver.url}/hooks/s3cret-path?key=s3cret-query`)
      const videoId = event.subjectId
      const created = Date.parse(event.createdAt)

      yield* worker.drain("webhooks")
      receiver.setBehaviour({ status: 204 })
      yield* TestClock.adjust(`${RETRY_WAITS_SECONDS[0]!} seconds`)
      yield* worker.drain("webhooks")
      expect(receiver.requests).toHaveLength(2)

      const log = yield* deliveries(videoId)
      expect(log.nextCursor).toBeNull()
      expect(log.data).toHaveLength(1)
      const [delivered] = log.data
      expect(delivered).toMatchObject({
        eventId: event.id,
        event: "video.failed",
        state: "delivered",
        createdAt: event.createdAt,
        target: `${receiver.url}/…`,
        redeliverableAt: new Date(created + REDELIVERY_AFTER_MS).toISOString()
      })
      expect(delivered!.attempts.map((a) => [a.series, a.attempt, a.status, a.error, a.target])).toEqual([
        [1, 1, 500, null, `${receiver.url}/…`],
        [1, 2, 204, null, `${receiver.url}/…`]
      ])
      expect(Date.parse(delivered!.attempts[1]!.startedAt) - Date.parse(delivered!.attempts[0]!.startedAt)).toBe(30_000)
      expect(JSON.stringify(log)).not.toContain("s3cret")

      // Within the window: 409, saying until when.
      const early = yield* Effect.flip(redeliver(videoId, event.id))
      expect(early).toMatchObject({ _tag: "Conflict" })
      expect(early.message).toContain(new Date(created + REDELIVERY_AFTER_MS).toISOString())
      yield* TestClock.adjust(created + REDELIVERY_AFTER_MS - 1 - (yield* Clock.currentTimeMillis))
      expect((yield* Effect.flip(redeliver(videoId, event.id)))._tag).toBe("Conflict")
      yield* TestClock.adjust(1)

      receiver.setBehaviour({ status: 503 })
      const again = yield* redeliver(videoId, event.id)
      expect(again).toMatchObject({ eventId: event.id, state: "pending", redeliverableAt: null })
      expect(again.attempts).toHaveLength(2)
      // While the new series runs, another redelivery is refused.
      const pending = yield* Effect.flip(redeliver(videoId, event.id))
      expect(pending.message).toMatch(/still being delivered/)

      // The new series numbers its attempts from 1 and waits as the first did: 30 s after a failure.
      yield* worker.drain("webhooks")
      receiver.setBehaviour({ status: 200 })
      yield* TestClock.adjust(`${RETRY_WAITS_SECONDS[0]! * 1000 - 1} millis`)
      yield* worker.drain("webhooks")
      expect(receiver.requests).toHaveLength(3)
      yield* TestClock.adjust("1 millis")
      yield* worker.drain("webhooks")
      expect(receiver.requests).toHaveLength(4)

      const [first, , third, fourth] = receiver.requests
      for (const later of [third!, fourth!]) {
        expect(later.headers["webhook-id"]).toBe(first!.headers["webhook-id"])
        expect(later.body).toBe(first!.body)
        expect(later.path).toBe("/hooks/s3cret-path?key=s3cret-query")
      }
      expect(third!.headers["webhook-timestamp"]).not.toBe(first!.headers["webhook-timestamp"])

      const [afterRedelivery] = (yield* deliveries(videoId)).data
      expect(afterRedelivery!.state).toBe("delivered")
      expect(afterRedelivery!.attempts.map((a) => [a.series, a.attempt, a.status])).toEqual([
        [1, 1, 500],
        [1, 2, 204],
        [2, 1, 503],
        [2, 2, 200]
      ])
      const redeliveredAt = Date.parse(afterRedelivery!.attempts[2]!.startedAt)
      expect(afterRedelivery!.redeliverableAt).toBe(new Date(redeliveredAt + REDELIVERY_AFTER_MS).toISOString())
    }))

  it.scoped("answers 404 for another workspace's video and for an event of another video", () =>
    Effect.gen(function*() {
      const receiver = yield* httpsReceiver()
      const event = yield* failedVideoEvent(`${receiver.url}/a`)
      const other = yield* failedVideoEvent(`${receiver.url}/b`)
      const strangers = yield* Effect.flip(
        listVideoDeliveries.handle({ id: event.subjectId, limit: 20, cursor: undefined }).pipe(asStranger)
      )
      expect(strangers).toMatchObject({ _tag: "NotFound", resource: "video" })
      expect(yield* Effect.flip(redeliver(event.subjectId, other.id))).toMatchObject({ _tag: "NotFound", resource: "webhook event" })
    }))
})
