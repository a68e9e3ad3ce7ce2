// A webhook event as its delivery log shows it: where it went (host only), how each attempt ended,
// and from when it may be redelivered.
import { Schema } from "effect"
import type { EventDeliveries } from "../../../../domain/ports/outbox.ts"
import { WebhookEventName } from "../../../../domain/video.ts"
import { redactUrl, redeliverableAt } from "../../../../domain/webhooks.ts"

export const WebhookEventId = Schema.UUID.annotations({
  description: "The event's id, sent as the `webhook-id` header: the same on every attempt and every redelivery."
})

export const WebhookAttempt = Schema.Struct({
  series: Schema.Int.annotations({
    description: "1 for the automatic deliveries; each redelivery starts the next series."
  }),
  attempt: Schema.Int.annotations({ description: "The attempt's number within its series, from 1 (at most 10)." }),
  startedAt: Schema.String.annotations({ description: "When the attempt began (ISO 8601 UTC)." }),
  durationMs: Schema.Number.annotations({ description: "Until the receiver answered, or the attempt gave up." }),
  status: Schema.NullOr(Schema.Int).annotations({ description: "The receiver's HTTP status; null when no answer came." }),
  error: Schema.NullOr(Schema.String).annotations({
    description: "Why no answer came (timeout, DNS, TLS, connection refused); null when one did."
  }),
  target: Schema.String.annotations({
    description: "Scheme and host the attempt went to. A webhook URL's path and query may hold credentials: they are never shown."
  })
}).annotations({ identifier: "WebhookAttempt" })

export const WebhookDelivery = Schema.Struct({
  eventId: WebhookEventId,
  event: WebhookEventName.annotations({ description: "The event's name, e.g. `video.failed`." }),
  state: Schema.Literal("pending", "delivered", "dropped").annotations({
    description:
      "`pending` while attempts remain; `delivered` once the receiver answered 2xx; `dropped` when the last attempt of a series failed."
  }),
  createdAt: Schema.String.annotations({ description: "When the event happened (ISO 8601 UTC)." }),
  target: Schema.String.annotations({ description: "Scheme and host of the receiver; never its path or query." }),
  redeliverableAt: Schema.NullOr(Schema.String).annotations({
    description:
      "From when POST /v1/videos/{id}/deliveries/{eventId}/redeliver may send the event again: 24 hours after its latest series of attempts began. null while the event is pending."
  }),
  attempts: Schema.Array(WebhookAttempt).annotations({ description: "Every attempt, series by series, oldest first." })
}).annotations({
  identifier: "WebhookDelivery",
  description: "One webhook event of the video and the attempts to deliver it."
})
export type WebhookDelivery = typeof WebhookDelivery.Type

export const presentDelivery = ({ attempts, event }: EventDeliveries): WebhookDelivery => {
  const redeliverable = redeliverableAt(event, attempts)
  return {
    eventId: event.id,
    event: event.name,
    state: event.state,
    createdAt: event.createdAt,
    target: redactUrl(event.url),
    redeliverableAt: redeliverable === null ? null : new Date(redeliverable).toISOString(),
    attempts: attempts.map((a) => ({
      series: a.series,
      attempt: a.attempt,
      startedAt: a.startedAt,
      durationMs: a.durationMs,
      status: a.status,
      error: a.error,
      target: a.target
    }))
  }
}
