// A processing video whose work then fails: one video.failed event, pending in the outbox.
// Webhook tests start from it, whatever stores they run on.
import { Clock, Effect } from "effect"
import { Outbox } from "../../domain/ports/outbox.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { newCaptionVideo } from "../../domain/video.ts"
import { videoWork } from "../../src/kernel/video-work.ts"

export const failedVideoEvent = (webhookUrl: string) =>
  Effect.gen(function*() {
    const id = crypto.randomUUID()
    yield* (yield* VideoStore).insert(newCaptionVideo({
      id,
      workspaceId: "ws",
      templateId: -1,
      renderOptions: null,
      webhookUrl,
      editorToken: `ed_${id}`,
      source: { url: "https://example.com/a.mp4" },
      at: new Date(yield* Clock.currentTimeMillis).toISOString()
    }))
    yield* videoWork.apply(id, (at) => ({ _tag: "Failed", error: "boom", at }))
    const [event] = yield* (yield* Outbox).forSubject(id)
    return event!
  })
