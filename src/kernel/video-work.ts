// Videos as a kind of work: their store, their state machine (domain/video.ts) and what its effects do
// besides the end event: refund the work, queue its render, stop its jobs.
import { Clock, Effect, Either, Option } from "effect"
import { CashLedger } from "../../domain/ports/cash-ledger.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import {
  hasReachedStep,
  isWorking,
  transition,
  type VideoEffect,
  type VideoEvent,
  type VideoRecord,
  workChargeKey,
  workKey
} from "../../domain/video.ts"
import { generationJobKey, RenderVideo, renderJobKey } from "./job-catalogue.ts"
import { enqueue } from "./job.ts"
import { presentVideo } from "./present-video.ts"
import { refundCredits } from "./refund-credits.ts"
import { newId } from "./secrets.ts"
import { workLifecycle } from "./work-lifecycle.ts"

const carryOut = (video: VideoRecord, effect: Exclude<VideoEffect, { readonly _tag: "Emit" }>) =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    switch (effect._tag) {
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

export const videoWork = workLifecycle({
  name: "video",
  // Videos came first: their step lines ("step probing done") carry no prefix, and the bench reads them.
  stepLog: "step",
  store: VideoStore,
  transition: (current: VideoRecord, event: VideoEvent) =>
    Either.map(transition(current, event), ({ video, effects }) => ({ record: video, effects })),
  carryOut,
  isWorking,
  // Its refund is an effect of the transition (RefundWork).
  failed: (_, message, at) => Effect.succeed<VideoEvent>({ _tag: "Failed", error: message, at }),
  hasReachedStep,
  stepStarted: (step, at): VideoEvent => ({ _tag: "StepStarted", step, at }),
  present: presentVideo,
  webhookField: "video"
})
