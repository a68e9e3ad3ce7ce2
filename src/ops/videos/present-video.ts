import { Effect, Option } from "effect"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { toPublic, type Video, type VideoRecord } from "../../../domain/video.ts"
import { editorUrl, fileUrl } from "../../kernel/links.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"

/** The public video object, identical for GET /v1/videos/:id, tool output and webhook snapshots. */
export const presentVideo = (video: VideoRecord): Effect.Effect<Video, never, FileStore | ServiceConfig> =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const files = yield* FileStore
    const link = (id: string | null) =>
      id === null
        ? Effect.succeed(null)
        : files.get(id).pipe(
          Effect.map(Option.filter((f) => f.deletedAt === null)),
          Effect.map(Option.match({ onNone: () => null, onSome: (f) => fileUrl(baseUrl, f) }))
        )
    return toPublic(video, {
      editorUrl: editorUrl(baseUrl, video.editorToken),
      videoUrl: yield* link(video.videoFileId),
      thumbnailUrl: yield* link(video.thumbnailFileId)
    })
  })
