// POST /v1/videos/:id/cancel: stops the work a video is doing. The record changes, the refund, the
// video.failed event and the job's cancellation land in one transaction; the worker running the job
// (in any process) sees the cancellation within about a second and interrupts it, killing its tools.
import { Effect, Either, Option, Schema } from "effect"
import { Conflict } from "../../../domain/errors.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { transition, Video, VideoId } from "../../../domain/video.ts"
import { operation } from "../../kernel/operation.ts"
import { videoWork } from "../../kernel/video-work.ts"
import { findVideo } from "./parts/find-video.ts"
import { presentVideo } from "../../kernel/present-video.ts"

export const cancelVideo = operation({
  name: "cancelVideo",
  summary: "Cancel a video's work",
  description:
    "Stops a processing video, or the running export of a finished one. Its job stops within about a second wherever it runs (a running encode or transcription is killed); the video becomes `failed` with an `error` that starts with `cancelled`; the credits charged for that work are refunded; `video.failed` is sent once. Answers the video as it is now. 409 when nothing is running (the video is completed or failed, a cancelled one included: a repeated cancel answers 409).",
  path: Schema.Struct({ id: VideoId }),
  payload: Schema.Struct({}),
  output: Video,
  errors: ["NotFound", "Conflict"],
  http: { method: "POST", path: "/v1/videos/:id/cancel" },
  access: "workspace",
  tool: "cancel_video",
  // Sends video.failed; the work stopped is lost (its credits come back, its progress does not).
  openWorld: true,
  destructive: true,
  cli: "cancel",
  idempotent: false,
  handle: ({ id }) =>
    Effect.gen(function*() {
      const { id: videoId } = yield* findVideo(id)
      const video = yield* (yield* Transactor).atomically(Effect.gen(function*() {
        // Held until the commit: a worker's next step waits, then finds the video failed.
        const held = Option.getOrThrow(yield* (yield* VideoStore).getForUpdate(videoId))
        const check = transition(held, { _tag: "Cancelled", at: held.updatedAt })
        if (Either.isLeft(check)) return yield* new Conflict({ message: `Nothing to cancel: ${check.left.reason}.` })
        return yield* videoWork.apply(videoId, (at) => ({ _tag: "Cancelled", at }))
      }))
      yield* Effect.logInfo("video cancelled").pipe(Effect.annotateLogs({ videoId }))
      return yield* presentVideo(video)
    })
})
