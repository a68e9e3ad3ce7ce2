// The retry schedule driven by TestClock, with the real https transport and a real receiver on
// loopback: 10 attempts, waits measured from the end of each failed attempt, then dropped.
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, TestClock } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { OutboundClientLive } from "../../adapters/outbound/outbound-client.ts"
import { HttpsWebhookTransportLive } from "../../adapters/webhooks/https-transport.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Outbox } from "../../domain/ports/outbox.ts"
import { RETRY_WAITS_SECONDS } from "../../domain/webhooks.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { deliverWebhookJob } from "../../src/ops/webhooks/deliver-webhook.job.ts"
import { startHttpsReceiver } from "../support/https-receiver.ts"
import { failedVideoEvent } from "../support/failed-video.ts"

/** Only the webhook lane runs here. */
const worker = makeJobRunner([deliverWebhookJob])

const TestLayer = Layer.mergeAll(
  MemoryStoresLive,
  HttpsWebhookTransportLive.pipe(Layer.provide(OutboundClientLive)),
  ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: "/tmp" })
)

/** Real time passes while TestClock stands still: for waiting on the receiver. */
const realPause = (ms: number) => Effect.promise(() => new Promise((r) => setTimeout(r, ms)))

const receiverScoped = Effect.acquireRelease(Effect.promise(() => startHttpsReceiver()), (r) => Effect.promise(() => r.close()))


const attemptStarts = (eventId: string) =>
  Effect.map(Effect.flatMap(Outbox, (o) => o.attempts(eventId)), (as) => as.map((a) => Date.parse(a.startedAt)))

layer(TestLayer, { timeout: "60 seconds" })("webhook retry schedule", (it) => {
  it.scoped("retries a failing receiver on the schedule from the end of each attempt, then drops the event", () =>
    Effect.gen(function*() {
      const receiver = yield* receiverScoped
      receiver.setBehaviour({ status: 500 })
      const event = yield* failedVideoEvent(`${receiver.url}/hook`)
      const t0 = Date.parse(event.createdAt)

      yield* worker.drain("webhooks")
      expect(receiver.requests).toHaveLength(1)
      let expected = t0
      for (const [i, wait] of RETRY_WAITS_SECONDS.entries()) {
        yield* TestClock.adjust(`${wait * 1000 - 1} millis`)
        yield* worker.drain("webhooks")
        expect(receiver.requests).toHaveLength(i + 1)
        yield* TestClock.adjust("1 millis")
        yield* worker.drain("webhooks")
        expect(receiver.requests).toHaveLength(i + 2)
        expected += wait * 1000
      }
      const starts = yield* attemptStarts(event.id)
      expect(starts).toHaveLength(10)
      expect(starts.slice(1).map((s, i) => (s - starts[i]!) / 1000)).toEqual([...RETRY_WAITS_SECONDS])
      expect(starts[9]).toBe(expected)
      expect(Option.map(yield* (yield* Outbox).get(event.id), (e) => e.state)).toEqual(Option.some("dropped"))

      // Nothing is due any more, however long we wait.
      yield* TestClock.adjust("48 hours")
      yield* worker.drain("webhooks")
      expect(receiver.requests).toHaveLength(10)
      expect(yield* (yield* JobQueue).nextRunAt("webhooks")).toEqual(Option.none())
      // Each delivery carries the same webhook-id: it is the receiver's idempotency key.
      expect(new Set(receiver.requests.map((r) => r.headers["webhook-id"])).size).toBe(1)
    }))

  it.scoped("times out a receiver that hangs after 10 s; the next attempt starts 10 s + 30 s after the first began", () =>
    Effect.gen(function*() {
      const receiver = yield* receiverScoped
      receiver.setBehaviour({ hang: true })
      const event = yield* failedVideoEvent(`${receiver.url}/slow`)
      const t0 = Date.parse(event.createdAt)

      const first = yield* Effect.fork(worker.drain("webhooks"))
      while (receiver.requests.length === 0) yield* realPause(20)
      yield* TestClock.adjust("10 seconds")
      yield* Fiber.join(first)
      const [attempt] = yield* (yield* Outbox).attempts(event.id)
      expect(attempt!.durationMs).toBe(10_000)
      expect(attempt!.error).toMatch(/no answer within 10 s/)

      receiver.setBehaviour({ status: 204 })
      yield* TestClock.adjust(`${30_000 - 1} millis`)
      yield* worker.drain("webhooks")
      expect(receiver.requests).toHaveLength(1)
      yield* TestClock.adjust("1 millis")
      yield* worker.drain("webhooks")
      expect(receiver.requests).toHaveLength(2)
      expect(yield* attemptStarts(event.id)).toEqual([t0, t0 + 40_000])
      expect(Option.map(yield* (yield* Outbox).get(event.id), (e) => e.state)).toEqual(Option.some("delivered"))
    }))
})
