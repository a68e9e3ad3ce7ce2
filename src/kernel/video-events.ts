// Applies one domain event to a stored video and carries out the effects the state machine asks
// for, all in one transaction: the record, its webhook event, its refund and its next job land together.
import { Clock, Effect, Either, Option } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { CashLedger } from "../../domain/ports/cash-ledger.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { Outbox } from "../../domain/ports/outbox.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { isWorking, transition, type VideoEffect, type VideoEvent, type VideoRecord, workChargeKey, workKey } from "../../domain/video.ts"
import { presentVideo } from "./present-video.ts"
import { generationJobKey, RenderVideo, renderJobKey } from "./job-catalogue.ts"
import { enqueue } from "./job.ts"
import { queueWebhookEvent } from "./queue-webhook-event.ts"
import { refundCredits } from "./refund-credits.ts"
import { newId } from "./secrets.ts"
import { ServiceConfig } from "./service-config.ts"

export type VideoEventServices =
  | VideoStore
  | JobQueue
  | Ledger
  | CashLedger
  | Outbox
  | FileStore
  | ServiceConfig
  | Transactor

const carryOut = (video: VideoRecord, effect: VideoEffect) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    switch (effect._tag) {
      case "Emit": {
        if (video.webhookUrl === null) return
        yield* queueWebhookEvent({
          workspaceId: video.workspaceId,
          name: effect.event,
          subjectId: video.id,
          dedupeKey: `${effect.event.split(".")[0]}:${effect.dedupeKey}`,
          payload: { video: yield* presentVideo(video) },
          url: video.webhookUrl
        })
        return
      }
      case "RefundWork": {
        yield* refundCredits(effect.workKey, new Date(now).toISOString())
        // Only renders are paid in cash (BYOK), under the same key as a credit render charge.
        const cash = yield* CashLedger
        const cashCharge = yield* cash.entry(workChargeKey(effect.workKey, "render"))
        if (Option.isSome(cashCharge) && cashCharge.value.amount < 0) {
          yield* cash.post({
            id: newId(),
            workspaceId: cashCharge.value.workspaceId,
            key: `${cashCharge.value.key}:refund`,
            kind: "render_refund",
            amount: -cashCharge.value.amount,
            note: "refund: render",
            videoId: cashCharge.value.videoId,
            at: new Date(now).toISOString()
          }).pipe(Effect.orDie) // a refund is never refused
        }
        return
      }
      case "StartRender": {
        yield* enqueue(RenderVideo, { videoId: video.id, workKey: effect.workKey, options: effect.options }, {
          runAt: now,
          dedupeKey: renderJobKey(effect.workKey),
          workspaceId: video.workspaceId
        })
        return
      }
      case "StopWork": {
        // The work's job is generation (with its render) for the first piece of work, a render after that.
        const queue = yield* JobQueue
        const reason = "cancelled on request"
        if (effect.workKey === workKey({ id: video.id, work: 0 })) yield* queue.cancel(generationJobKey(video.id), reason)
        yield* queue.cancel(renderJobKey(effect.workKey), reason)
        return
      }
    }
  })

/**
 * Loads the video, applies the event and stores the result with its effects. An illegal
 * transition is a defect: the caller asked for something the state machine forbids.
 */
export const applyVideoEvent = (
  videoId: string,
  event: (at: string) => VideoEvent
): Effect.Effect<VideoRecord, never, VideoEventServices> =>
  Effect.gen(function*() {
    const videos = yield* VideoStore
    const current = yield* videos.getForUpdate(videoId).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.dieMessage(`video ${videoId} vanished`),
        onSome: Effect.succeed
      }))
    )
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const result = transition(current, event(at))
    if (Either.isLeft(result)) return yield* Effect.die(result.left)
    const { video, effects } = result.right
    yield* videos.update(video)
    for (const effect of effects) yield* carryOut(video, effect)
    return video
  }).pipe(
    (self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)),
    Effect.withSpan("applyVideoEvent", { attributes: { videoId } })
  )

/**
 * Ends the running work of a video as failed, unless it already ended (a retried job finding it
 * terminal, or a cancel that came first): the record is held from the check to the change.
 */
export const failVideo = (videoId: string, failure: WorkFailed) =>
  Effect.gen(function*() {
    const video = yield* (yield* VideoStore).getForUpdate(videoId)
    if (!Option.exists(video, isWorking)) return
    yield* applyVideoEvent(videoId, (at) => ({ _tag: "Failed", error: failure.message, at }))
  }).pipe((self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)))
