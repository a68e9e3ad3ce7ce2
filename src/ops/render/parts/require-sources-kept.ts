// A render reads the files its video was made from: when one of them has expired, the request is
// refused up front (409, nothing charged) rather than charged, queued and failed. A file that
// expires while the render waits in the queue fails the job instead, which refunds it.
import { Clock, Effect, Option } from "effect"
import { Conflict } from "../../../../domain/errors.ts"
import { fileAvailability, sourceExpiredMessage } from "../../../../domain/file-retention.ts"
import { projectFileIds, projectUploadKeys } from "../../../../domain/generated-project.ts"
import { FileStore } from "../../../../domain/ports/file-store.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import type { VideoRecord } from "../../../../domain/video.ts"
import { withSpan } from "../../../kernel/spans.ts"

/** The stored files a render of the video reads. */
const renderSourceIds = (video: VideoRecord) =>
  video.kind === "caption"
    ? Effect.succeed(video.sourceFileId === null ? [] : [video.sourceFileId])
    : Effect.map(
      Effect.flatMap(VideoStore, (videos) => videos.getProject(video.id)),
      Option.match({ onNone: () => [], onSome: (project) => [...projectFileIds(project), ...projectUploadKeys(project)] })
    )

export const requireSourcesKept = (video: VideoRecord) =>
  Effect.gen(function*() {
    const files = yield* FileStore
    const now = yield* Clock.currentTimeMillis
    for (const id of yield* renderSourceIds(video)) {
      const file = yield* files.get(id)
      if (Option.isSome(file) && fileAvailability(file.value, now) === "expired") {
        return yield* new Conflict({ message: sourceExpiredMessage(file.value.name) })
      }
    }
  }).pipe(withSpan("requireSourcesKept", { attributes: { videoId: video.id } }))
