// Records a webhook event in the outbox and queues its first delivery, in the caller's transaction:
// the one way a video or a caption removal announces how its work ended.
import { Clock, Effect, Option } from "effect"
import { Outbox, type OutboxEvent } from "../../domain/ports/outbox.ts"
import { DeliverWebhook, deliveryJobKey } from "./job-catalogue.ts"
import { enqueue } from "./job.ts"
import { newId } from "./secrets.ts"

/** Nothing is recorded when an event with the same dedupe key exists. */
export const queueWebhookEvent = (event: Pick<OutboxEvent, "workspaceId" | "name" | "subjectId" | "dedupeKey" | "payload" | "url">) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const added = yield* (yield* Outbox).add({ ...event, id: newId(), createdAt: new Date(now).toISOString(), state: "pending" })
    if (Option.isNone(added)) return
    yield* enqueue(DeliverWebhook, { eventId: added.value.id, series: 1 }, { runAt: now, dedupeKey: deliveryJobKey(added.value.id, 1) })
  })
