// DELETE /v1/videos/:id/media: the video's files go, its record stays. The files are marked deleted
// with the record's change in one transaction (their links stop working at once); the bytes are
// removed from the BlobStore after the commit.
import { Effect, Either, Option, Schema } from "effect"
import { Conflict } from "../../../domain/errors.ts"
import { projectMediaFileIds } from "../../../domain/generated-project.ts"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { recordFileIds, transition, Video, VideoId } from "../../../domain/video.ts"
import { operation } from "../../kernel/operation.ts"
import { videoWork } from "../../kernel/video-work.ts"
import { findVideo } from "./parts/find-video.ts"
import { presentVideo } from "../../kernel/present-video.ts"

export const deleteVideoMedia = operation({
  name: "deleteVideoMedia",
  summary: "Delete a video's media",
  description:
    "Deletes the video's stored files: every mp4 and thumbnail it was exported to, its source, and a generated video's narration, pictures and footage (uploads stay: they are the workspace's). Their links answer 404 from then on. The record stays: GET /v1/videos/{id} still answers, without `videoUrl` or `thumbnailUrl` and with `mediaDeletedAt`; its captions stay readable. The video cannot be rendered again (409). 409 while the video is processing or an export runs: cancel it first. Repeating the call answers the same.",
  path: Schema.Struct({ id: VideoId }),
  payload: Schema.Struct({}),
  output: Video,
  errors: ["NotFound", "Conflict"],
  http: { method: "DELETE", path: "/v1/videos/:id/media" },
  access: "workspace",
  tool: "delete_video_media",
  cli: "delete-media",
  idempotent: false,
  handle: ({ id }) =>
    Effect.gen(function*() {
      const { id: videoId } = yield* findVideo(id)
      const files = yield* FileStore
      const { fileIds, video } = yield* (yield* Transactor).atomically(Effect.gen(function*() {
        const videos = yield* VideoStore
        const held = Option.getOrThrow(yield* videos.getForUpdate(videoId))
        const project = yield* videos.getProject(videoId)
        const fileIds = [...recordFileIds(held), ...Option.match(project, { onNone: () => [], onSome: projectMediaFileIds })]
        // A repeat answers the same, and removes again whatever bytes an interrupted first call left.
        if (held.mediaDeletedAt !== null) return { fileIds, video: held }
        const check = transition(held, { _tag: "MediaDeleted", at: held.updatedAt })
        if (Either.isLeft(check)) return yield* new Conflict({ message: `Cannot delete the media: ${check.left.reason}.` })
        const video = yield* videoWork.apply(videoId, (at) => ({ _tag: "MediaDeleted", at }))
        // The files go at the instant the record says its media went.
        yield* Effect.forEach(fileIds, (fileId) => files.markDeleted(fileId, video.updatedAt))
        return { fileIds, video }
      }))
      const blobs = yield* BlobStore
      yield* Effect.forEach(fileIds, (fileId) =>
        files.get(fileId).pipe(
          Effect.flatMap(Option.match({
            onNone: () => Effect.void,
            onSome: (file) => file.workspaceId === video.workspaceId ? blobs.remove(file.blobKey) : Effect.void
          }))
        ))
      yield* Effect.logInfo("video media deleted").pipe(Effect.annotateLogs({ videoId, files: fileIds.length }))
      return yield* presentVideo(video)
    })
})
