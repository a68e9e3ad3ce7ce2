// A caption video whose captions are timed (completed, no mp4 yet), made straight from its events:
// render tests start from it without running the worker.
import { Effect } from "effect"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { newCaptionVideo } from "../../domain/video.ts"
import { videoWork } from "../../src/kernel/video-work.ts"
import { nowIso } from "../../src/kernel/now.ts"

export const completedVideo = (workspaceId: string) =>
  Effect.gen(function*() {
    const id = crypto.randomUUID()
    yield* (yield* VideoStore).insert(newCaptionVideo({
      id,
      workspaceId,
      templateId: -1,
      renderOptions: null,
      webhookUrl: null,
      editorToken: `ed_${id}`,
      source: { url: "https://media.example.com/talk.mp4" },
      at: yield* nowIso
    }))
    yield* videoWork.apply(id, (at) => ({ _tag: "SourceProbed", facts: { durationSeconds: 2, width: 360, height: 640 }, at }))
    return yield* videoWork.apply(id, (at) => ({ _tag: "Generated", at }))
  })
