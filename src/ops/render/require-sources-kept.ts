// A render reads the files its video was made from: when one of them has expired, the request is
// refused up front (409, nothing charged) rather than charged, queued and failed. A file that
// expires while the render waits in the queue fails the job instead, which refunds it.
import { Clock, Effect, Option } from "effect"
import { Conflict } from "../../../domain/errors.ts"
import { fileAvailability, sourceExpiredMessage } from "../../../domain/file-retention.ts"
import { type GeneratedProject, projectFileIds } from "../../../domain/generated-project.ts"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import type { VideoRecord } from "../../../domain/video.ts"

/** The uploads a generated video's picture is made of (their keys are their files' ids). */
const uploadIds = (project: GeneratedProject): ReadonlyArray<string> =>
  project.visuals._tag === "Illustrated"
    ? []
    : [
      ...(project.visuals.footage._tag === "Upload" ? [project.visuals.footage.key] : []),
      ...(project.visuals.top === null ? [] : [project.visuals.top])
    ]

/** The stored files a render of the video reads. */
const renderSourceIds = (video: VideoRecord) =>
  video.kind === "caption"
    ? Effect.succeed(video.sourceFileId === null ? [] : [video.sourceFileId])
    : Effect.map(
      Effect.flatMap(VideoStore, (videos) => videos.getProject(video.id)),
      Option.match({ onNone: () => [], onSome: (project) => [...projectFileIds(project), ...uploadIds(project)] })
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
  }).pipe(Effect.withSpan("requireSourcesKept", { attributes: { videoId: video.id } }))
