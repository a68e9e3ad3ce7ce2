// POST /v1/videos/:id/deliveries/:eventId/redeliver: sends a delivered or dropped event again once its
// automatic window is over, as a new series of attempts on the usual schedule.
import { Clock, Effect, Option, Schema } from "effect"
import { Conflict, NotFound } from "../../../domain/errors.ts"
import { Outbox } from "../../../domain/ports/outbox.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoId } from "../../../domain/video.ts"
import { latestSeries, redeliverableAt } from "../../../domain/webhooks.ts"
import { enqueue } from "../../kernel/job.ts"
import { DeliverWebhook, deliveryJobKey } from "../../kernel/job-catalogue.ts"
import { operation } from "../../kernel/operation.ts"
import { findVideo } from "../videos/parts/find-video.ts"
import { presentDelivery, WebhookDelivery, WebhookEventId } from "./parts/webhook-delivery.ts"

export const redeliverWebhookEvent = operation({
  name: "redeliverWebhookEvent",
  summary: "Redeliver a webhook event",
  description:
    "Sends one of the video's webhook events again: a new series of up to 10 attempts on the usual schedule, with the same `webhook-id` and body (a fresh `webhook-timestamp` and signature), to the URL the event was first sent to. Allowed once the event is delivered or dropped and 24 hours have passed since its latest series of attempts began (its `redeliverableAt`); 409 before that, saying when. Answers the event's delivery record, `pending` again.",
  path: Schema.Struct({ id: VideoId, eventId: WebhookEventId }),
  payload: Schema.Struct({}),
  output: WebhookDelivery,
  errors: ["NotFound", "Conflict"],
  http: { method: "POST", path: "/v1/videos/:id/deliveries/:eventId/redeliver" },
  access: "workspace",
  tool: null,
  cli: "redeliver",
  idempotent: false,
  handle: ({ eventId, id }) =>
    Effect.gen(function*() {
      const video = yield* findVideo(id)
      const outbox = yield* Outbox
      const delivery = yield* (yield* Transactor).atomically(Effect.gen(function*() {
        const event = yield* outbox.get(eventId).pipe(
          Effect.map(Option.filter((e) => e.subjectId === video.id)),
          Effect.flatMap(Option.match({
            onNone: () => new NotFound({ resource: "webhook event", id: eventId }),
            onSome: Effect.succeed
          }))
        )
        const attempts = yield* outbox.attempts(eventId)
        const from = redeliverableAt(event, attempts)
        if (from === null) {
          return yield* new Conflict({
            message: "The event is still being delivered (automatic attempts go on for up to 24 hours); redeliver it once it is delivered or dropped."
          })
        }
        const now = yield* Clock.currentTimeMillis
        if (now < from) {
          return yield* new Conflict({
            message: `The event's automatic delivery window runs until ${new Date(from).toISOString()}; redeliver it after that.`
          })
        }
        const series = latestSeries(attempts) + 1
        yield* outbox.setState(eventId, "pending")
        yield* enqueue(DeliverWebhook, { eventId, series }, { runAt: now, dedupeKey: deliveryJobKey(eventId, series) })
        return { event: { ...event, state: "pending" as const }, attempts }
      }))
      yield* Effect.logInfo("webhook event redelivered").pipe(Effect.annotateLogs({ videoId: video.id, eventId }))
      return presentDelivery(delivery)
    })
})
