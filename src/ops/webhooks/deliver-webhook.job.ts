// Delivers one stored event: one attempt per run, the next one scheduled by the domain's table,
// measured from the end of the failed attempt. The attempt's timeout runs on Effect's clock. A
// redelivery is a new series of attempts, numbered and scheduled as the first was.
import { Clock, Duration, Effect, Metric, Option } from "effect"
import { Outbox } from "../../../domain/ports/outbox.ts"
import { WebhookSecretStore } from "../../../domain/ports/webhook-secret-store.ts"
import { type DeliveryOutcome, WebhookTransport } from "../../../domain/ports/webhook-transport.ts"
import { activeAt } from "../../../domain/webhook-secrets.ts"
import {
  ATTEMPT_TIMEOUT_MS,
  isAcknowledged,
  MAX_ATTEMPTS,
  nextAttemptAt,
  redactUrl,
  webhookMessage
} from "../../../domain/webhooks.ts"
import { Done, handle, type JobOutcome } from "../../kernel/job.ts"
import { DeliverWebhook } from "../../kernel/job-catalogue.ts"
import { webhookDeliveries } from "../../kernel/metrics.ts"
import { webhookSignatures } from "../../kernel/webhook-signature.ts"

/** One attempt in the metrics: delivered, failed (another follows) or dropped (the last one failed). */
const countAttempt = (outcome: "delivered" | "failed" | "dropped", attempt: number) =>
  Metric.increment(Metric.tagged(Metric.tagged(webhookDeliveries, "outcome", outcome), "attempt", String(attempt)))

const timedOut: DeliveryOutcome = { _tag: "Unreachable", error: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` }

export const deliverWebhook = (
  eventId: string,
  series = 1
): Effect.Effect<JobOutcome, never, Outbox | WebhookTransport | WebhookSecretStore> =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const found = yield* outbox.pending(eventId, series)
    if (Option.isNone(found)) return Done
    const { event } = found.value
    const attempt = found.value.attemptsMade + 1
    if (attempt > MAX_ATTEMPTS) {
      yield* outbox.setState(eventId, "dropped")
      return Done
    }
    const startedAt = yield* Clock.currentTimeMillis
    const timestampSeconds = Math.floor(startedAt / 1000)
    const message = webhookMessage({ ...event, eventId: event.id, timestampSeconds })
    // Signed with every secret active now (several during a rotation); unsigned when the workspace has none.
    const secrets = activeAt(yield* (yield* WebhookSecretStore).list(event.workspaceId), startedAt)
    const headers = secrets.length === 0 ? message.headers : {
      ...message.headers,
      "webhook-signature": webhookSignatures(secrets.map((s) => s.secret), event.id, timestampSeconds, message.body)
    }
    const outcome = yield* (yield* WebhookTransport)
      .post({ url: event.url, headers, body: message.body, timeoutMs: ATTEMPT_TIMEOUT_MS + 1000 })
      .pipe(Effect.timeoutTo({
        duration: Duration.millis(ATTEMPT_TIMEOUT_MS),
        onTimeout: () => timedOut,
        onSuccess: (o) => o
      }))
    const endedAt = yield* Clock.currentTimeMillis
    const delivered = outcome._tag === "Answered" && isAcknowledged(outcome.status)
    const next = delivered ? null : nextAttemptAt(attempt, endedAt)
    yield* outbox.recordAttempt({
      eventId,
      series,
      attempt,
      startedAt: new Date(startedAt).toISOString(),
      durationMs: endedAt - startedAt,
      status: outcome._tag === "Answered" ? outcome.status : null,
      error: outcome._tag === "Unreachable" ? outcome.error : null,
      target: redactUrl(event.url)
    }, delivered ? "delivered" : next === null ? "dropped" : undefined)
    const annotations = { eventId, event: event.name, series, attempt, target: redactUrl(event.url), durationMs: endedAt - startedAt }
    yield* Effect.annotateCurrentSpan({
      "webhook.event": event.name,
      "webhook.attempt": attempt,
      "webhook.target": redactUrl(event.url),
      ...(outcome._tag === "Answered" ? { "http.response.status_code": outcome.status } : { error: outcome.error })
    })
    if (delivered) {
      yield* countAttempt("delivered", attempt)
      yield* Effect.logInfo("webhook delivered").pipe(Effect.annotateLogs(annotations))
      return Done
    }
    const failure = outcome._tag === "Answered" ? `answered ${outcome.status}` : outcome.error
    if (next === null) {
      yield* countAttempt("dropped", attempt)
      yield* Effect.logWarning(`webhook dropped after ${attempt} attempts: ${failure}`).pipe(Effect.annotateLogs(annotations))
      return { _tag: "Dead", error: `dropped after ${attempt} attempts: ${failure}` } as const
    }
    yield* countAttempt("failed", attempt)
    yield* Effect.logInfo(`webhook attempt failed: ${failure}`).pipe(Effect.annotateLogs(annotations))
    return { _tag: "RetryAt", at: next, error: failure } as const
  }).pipe(Effect.withSpan("deliverWebhook", { attributes: { eventId, series } }))

export const deliverWebhookJob = handle(DeliverWebhook, {
  run: ({ eventId, series }) => deliverWebhook(eventId, series),
  onDead: ({ eventId }) => Effect.flatMap(Outbox, (o) => o.setState(eventId, "dropped"))
})
