// GET /v1/videos/:id/deliveries: the video's webhook events, newest first, with every attempt.
import { Effect, Schema } from "effect"
import { Outbox } from "../../../domain/ports/outbox.ts"
import { VideoId } from "../../../domain/video.ts"
import { operation } from "../../kernel/operation.ts"
import { findVideo } from "../videos/parts/find-video.ts"
import { ListEnvelope, PageParams } from "../../shared/list-envelope.ts"
import { presentDelivery, WebhookDelivery } from "./parts/webhook-delivery.ts"

export const listVideoDeliveries = operation({
  name: "listVideoDeliveries",
  summary: "List a video's webhook deliveries",
  description:
    "The webhook events sent for the video (one per piece of work), newest first, each with its state and every attempt: when, how long, the status code or the error, and the receiver's host (never its path or query). Empty when the video has no `webhookUrl`.",
  path: Schema.Struct({ id: VideoId }),
  payload: Schema.Struct(PageParams),
  output: ListEnvelope(WebhookDelivery, "WebhookDeliveryList"),
  errors: ["NotFound"],
  http: { method: "GET", path: "/v1/videos/:id/deliveries" },
  access: "workspace",
  tool: null,
  cli: "deliveries",
  idempotent: false,
  handle: ({ cursor, id, limit }) =>
    Effect.gen(function*() {
      const video = yield* findVideo(id)
      const page = yield* (yield* Outbox).deliveryLog({ subjectId: video.id, limit, cursor })
      return { data: page.items.map(presentDelivery), nextCursor: page.nextCursor }
    })
})
