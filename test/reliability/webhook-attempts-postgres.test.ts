// The webhook retry schedule on the PostgreSQL stores, driven by TestClock, with the real https
// transport and a receiver on loopback that never answers 2xx: 10 attempts at the schedule's times,
// each recorded in delivery_attempts, then the event is dropped and its job is dead.
import { describe, expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, TestClock } from "effect"
import { OutboundClientLive } from "../../adapters/outbound/outbound-client.ts"
import { HttpsWebhookTransportLive } from "../../adapters/webhooks/https-transport.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { MAX_ATTEMPTS, RETRY_WAITS_SECONDS } from "../../domain/webhooks.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { deliverWebhookJob } from "../../src/ops/webhooks/deliver-webhook.job.ts"
import { startHttpsReceiver } from "../support/https-receiver.ts"
import { PgTestStores, postgresSkipReason } from "../support/pg-test-db.ts"
import { failedVideoEvent } from "../support/failed-video.ts"

/** Only the webhook lane runs here. */
const worker = makeJobRunner([deliverWebhookJob])

const TestLayer = Layer.mergeAll(
  PgTestStores(),
  HttpsWebhookTransportLive.pipe(Layer.provide(OutboundClientLive)),
  ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: "/tmp" })
)

describe.skipIf(postgresSkipReason !== undefined)("webhook attempts on PostgreSQL", () => {
  layer(TestLayer, { timeout: "60 seconds" })((it) => {
    it.scoped("a receiver that never answers 2xx gets 10 attempts on the schedule, then the event is dropped", () =>
      Effect.gen(function*() {
        const receiver = yield* Effect.acquireRelease(
          Effect.promise(() => startHttpsReceiver()),
          (r) => Effect.promise(() => r.close())
        )
        receiver.setBehaviour({ status: 503 })
        const event = yield* failedVideoEvent(`${receiver.url}/hook`)
        const t0 = Date.parse(event.createdAt)

        yield* worker.drain("webhooks")
        expect(receiver.requests).toHaveLength(1)
        for (const [i, wait] of RETRY_WAITS_SECONDS.entries()) {
          // A millisecond early nothing is due; on time the next attempt runs.
          yield* TestClock.adjust(`${wait * 1000 - 1} millis`)
          yield* worker.drain("webhooks")
          expect(receiver.requests).toHaveLength(i + 1)
          yield* TestClock.adjust("1 millis")
          yield* worker.drain("webhooks")
          expect(receiver.requests).toHaveLength(i + 2)
        }

        // Each attempt starts when the previous one ended plus its wait; the transport answers at
        // once on TestClock, so the starts are the schedule's offsets from the event.
        const sql = yield* SqlClient.SqlClient
        const attempts = yield* sql<{ attempt: number; started_at: Date; status: number | null }>`
          SELECT attempt, started_at, status FROM delivery_attempts WHERE event_id = ${event.id} ORDER BY seq`
        expect(attempts.map((a) => a.attempt)).toEqual(Array.from({ length: MAX_ATTEMPTS }, (_, i) => i + 1))
        expect(attempts.every((a) => a.status === 503)).toBe(true)
        const offsets = attempts.map((a) => (a.started_at.getTime() - t0) / 1000)
        expect(offsets).toEqual([0, ...RETRY_WAITS_SECONDS.map((_, i) => RETRY_WAITS_SECONDS.slice(0, i + 1).reduce((a, b) => a + b))])

        const [stored] = yield* sql<{ state: string }>`SELECT state FROM outbox_events WHERE id = ${event.id}`
        expect(stored?.state).toBe("dropped")
        const jobs = yield* sql<{ status: string }>`SELECT status FROM jobs WHERE payload->>'eventId' = ${event.id}`
        expect(jobs.map((j) => j.status)).toEqual(["dead"])

        // Nothing is due any more, however long we wait.
        yield* TestClock.adjust("48 hours")
        yield* worker.drain("webhooks")
        expect(receiver.requests).toHaveLength(MAX_ATTEMPTS)
        expect(yield* (yield* JobQueue).nextRunAt("webhooks")).toEqual(Option.none())
        // Every delivery carried the same webhook-id: the receiver's idempotency key.
        expect(new Set(receiver.requests.map((r) => r.headers["webhook-id"]))).toEqual(new Set([event.id]))
      }))
  })
})
