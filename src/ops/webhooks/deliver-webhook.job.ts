// Delivers stored events: one attempt per run, the next one scheduled by the domain's table, measured
// from the end of the failed attempt. The attempts' timeouts run on Effect's clock. A redelivery is a
// new series of attempts, numbered and scheduled as the first was. Deliveries run in batches that
// share their store round trips: a durable record per attempt would otherwise cost more than the POST.
import { Clock, Effect, Metric, Option } from "effect"
import { Outbox, type PendingDelivery, type RecordedAttempt } from "../../../domain/ports/outbox.ts"
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
import { type AttemptDeadlines, attemptDeadlines } from "../../kernel/attempt-deadlines.ts"
import { type BatchItem, type BatchRun, Done, handleBatch, type JobOutcome } from "../../kernel/job.ts"
import { DeliverWebhook } from "../../kernel/job-catalogue.ts"
import { seriesOf, webhookDeliveries } from "../../kernel/metrics.ts"
import { webhookSignatures } from "../../kernel/webhook-signature.ts"
import { withSpan } from "../../kernel/spans.ts"

/** One attempt in the metrics: delivered, failed (another follows) or dropped (the last one failed). */
const attemptsOf = seriesOf(webhookDeliveries, "outcome", "attempt")
const countAttempt = (outcome: "delivered" | "failed" | "dropped", attempt: number) => Metric.increment(attemptsOf(outcome, String(attempt)))

const timedOut: DeliveryOutcome = { _tag: "Unreachable", error: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s` }

/** A delivery's attempt as the batch records it, and what it leaves the job to do. */
interface Attempted {
  readonly recorded: RecordedAttempt | undefined
  readonly outcome: JobOutcome
}

/** One attempt at one pending event: the POST (holding one of the lane's places), its log line and metric. */
const attemptDelivery = (
  { attemptsMade, event }: PendingDelivery,
  series: number,
  signing: ReadonlyArray<string>,
  inPlace: BatchRun["inPlace"],
  deadlines: AttemptDeadlines
): Effect.Effect<Attempted, never, WebhookTransport> =>
  Effect.gen(function*() {
    const attempt = attemptsMade + 1
    const eventId = event.id
    const startedAt = yield* Clock.currentTimeMillis
    const timestampSeconds = Math.floor(startedAt / 1000)
    const message = webhookMessage({ ...event, eventId, timestampSeconds })
    // Signed with every secret active now (several during a rotation); unsigned when the workspace has none.
    const headers = signing.length === 0 ? message.headers : {
      ...message.headers,
      "webhook-signature": webhookSignatures(signing, eventId, timestampSeconds, message.body)
    }
    const transport = yield* WebhookTransport
    // The transport's own timer, a second later, only backs up the deadline, which runs on Effect's clock.
    const outcome = yield* inPlace(
      Effect.flatMap(deadlines.start, ({ end, signal }) =>
        transport.post({ url: event.url, headers, body: message.body, timeoutMs: ATTEMPT_TIMEOUT_MS + 1000, signal }).pipe(
          // An answer that came before the deadline stands, even if the deadline passed before this ran.
          Effect.map((answer) => (answer._tag === "Unreachable" && signal.aborted ? timedOut : answer)),
          Effect.ensuring(Effect.sync(end))
        ))
    )
    const endedAt = yield* Clock.currentTimeMillis
    const delivered = outcome._tag === "Answered" && isAcknowledged(outcome.status)
    const next = delivered ? null : nextAttemptAt(attempt, endedAt)
    const target = redactUrl(event.url)
    const recorded: RecordedAttempt = {
      attempt: {
        eventId,
        series,
        attempt,
        startedAt: new Date(startedAt).toISOString(),
        durationMs: endedAt - startedAt,
        status: outcome._tag === "Answered" ? outcome.status : null,
        error: outcome._tag === "Unreachable" ? outcome.error : null,
        target
      },
      ...(delivered ? { settles: "delivered" } : next === null ? { settles: "dropped" } : {})
    }
    const annotations = { eventId, event: event.name, series, attempt, target, durationMs: endedAt - startedAt }
    yield* Effect.annotateCurrentSpan({
      "webhook.event": event.name,
      "webhook.attempt": attempt,
      "webhook.target": target,
      ...(outcome._tag === "Answered" ? { "http.response.status_code": outcome.status } : { error: outcome.error })
    })
    if (delivered) {
      yield* countAttempt("delivered", attempt)
      yield* Effect.logInfo("webhook delivered").pipe(Effect.annotateLogs(annotations))
      return { recorded, outcome: Done }
    }
    const failure = outcome._tag === "Answered" ? `answered ${outcome.status}` : outcome.error
    if (next === null) {
      yield* countAttempt("dropped", attempt)
      yield* Effect.logWarning(`webhook dropped after ${attempt} attempts: ${failure}`).pipe(Effect.annotateLogs(annotations))
      return { recorded, outcome: { _tag: "Dead", error: `dropped after ${attempt} attempts: ${failure}` } as const }
    }
    yield* countAttempt("failed", attempt)
    yield* Effect.logInfo(`webhook attempt failed: ${failure}`).pipe(Effect.annotateLogs(annotations))
    return { recorded, outcome: { _tag: "RetryAt", at: next, error: failure } as const }
  }).pipe(withSpan("deliverWebhook", { attributes: { eventId: event.id, series }, captureStackTrace: false }))

/**
 * Delivers a batch of events, one attempt each: their records read in one go, each workspace's secrets
 * once, the POSTs side by side (each holding one of the lane's places), the attempts recorded in one go.
 */
export const deliverWebhooks = (
  items: ReadonlyArray<BatchItem<{ readonly eventId: string; readonly series: number }>>,
  { asJob, concurrency, inPlace }: BatchRun
): Effect.Effect<ReadonlyArray<JobOutcome>, never, Outbox | WebhookTransport | WebhookSecretStore> =>
  Effect.gen(function*() {
    const outbox = yield* Outbox
    const secretStore = yield* WebhookSecretStore
    const found = yield* outbox.pending(items.map(({ payload }) => payload))
    const deadlines = yield* attemptDeadlines(ATTEMPT_TIMEOUT_MS)
    const now = yield* Clock.currentTimeMillis
    const workspaces = [...new Set(found.flatMap(Option.match({ onNone: () => [], onSome: ({ event }) => [event.workspaceId] })))]
    const secrets = new Map(
      yield* Effect.forEach(workspaces, (id) => Effect.map(secretStore.list(id), (list) => [id, activeAt(list, now).map((s) => s.secret)] as const), {
        concurrency: "unbounded"
      })
    )
    const attempted = yield* Effect.forEach(items, ({ job, payload }, i): Effect.Effect<Attempted, never, Outbox | WebhookTransport> => {
      const pending = found[i]!
      if (Option.isNone(pending)) return Effect.succeed({ recorded: undefined, outcome: Done })
      if (pending.value.attemptsMade + 1 > MAX_ATTEMPTS) {
        return Effect.as(outbox.setState(payload.eventId, "dropped"), { recorded: undefined, outcome: Done })
      }
      return asJob(job)(attemptDelivery(pending.value, payload.series, secrets.get(pending.value.event.workspaceId) ?? [], inPlace, deadlines))
    }, { concurrency })
    const recorded = attempted.flatMap(({ recorded }) => (recorded === undefined ? [] : [recorded]))
    if (recorded.length > 0) yield* outbox.recordAttempts(recorded)
    return attempted.map(({ outcome }) => outcome)
  }).pipe(Effect.scoped, withSpan("deliverWebhooks", { attributes: { deliveries: items.length } }))

export const deliverWebhookJob = handleBatch(DeliverWebhook, {
  runBatch: deliverWebhooks,
  onDead: ({ eventId }) => Effect.flatMap(Outbox, (o) => o.setState(eventId, "dropped"))
})
