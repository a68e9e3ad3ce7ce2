import { Effect, Option } from "effect"
import { FileStore } from "../../domain/ports/file-store.ts"
import { toPublic, type Video, type VideoRecord } from "../../domain/video.ts"
import { editorUrl, fileUrl } from "./links.ts"
import { ServiceConfig } from "./service-config.ts"

/** A stored file's public link; null when there is no file, or it was deleted or expired. */
export const fileLink = (id: string | null): Effect.Effect<string | null, never, FileStore | ServiceConfig> =>
  id === null
    ? Effect.succeed(null)
    : Effect.gen(function*() {
      const { baseUrl } = yield* ServiceConfig
      const file = Option.filter(yield* (yield* FileStore).get(id), (f) => f.deletedAt === null)
      return Option.match(file, { onNone: () => null, onSome: (f) => fileUrl(baseUrl, f) })
    })

/** The public video object, identical for GET /v1/videos/:id, tool output and webhook snapshots. */
export const presentVideo = (video: VideoRecord): Effect.Effect<Video, never, FileStore | ServiceConfig> =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    return toPublic(video, {
      editorUrl: editorUrl(baseUrl, video.editorToken),
      videoUrl: yield* fileLink(video.videoFileId),
      thumbnailUrl: yield* fileLink(video.thumbnailFileId)
    })
  })

/** The reply of every video create: the new video, processing, and its link in the editor. */
export const createdVideo = (video: VideoRecord) =>
  Effect.map(ServiceConfig, ({ baseUrl }) => ({
    id: video.id,
    status: video.status,
    render: video.render,
    createdAt: video.createdAt,
    editorUrl: editorUrl(baseUrl, video.editorToken)
  }))
