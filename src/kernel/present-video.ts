import { Effect, Option } from "effect"
import { FileStore, type StoredFile } from "../../domain/ports/file-store.ts"
import { toPublic, type Video, type VideoRecord } from "../../domain/video.ts"
import { editorUrl, fileUrl } from "./links.ts"
import { ServiceConfig } from "./service-config.ts"

/** A file's public link; null when there is none, or it was deleted. */
const linkOf = (baseUrl: string, file: StoredFile | undefined): string | null =>
  file === undefined || file.deletedAt !== null ? null : fileUrl(baseUrl, file)

/** A stored file's public link; null when there is no file, or it was deleted or expired. */
export const fileLink = (id: string | null): Effect.Effect<string | null, never, FileStore | ServiceConfig> =>
  id === null
    ? Effect.succeed(null)
    : Effect.gen(function*() {
      const { baseUrl } = yield* ServiceConfig
      return linkOf(baseUrl, Option.getOrUndefined(yield* (yield* FileStore).get(id)))
    })

/** The public video object, identical for GET /v1/videos/:id, tool output and webhook snapshots. */
export const presentVideo = (video: VideoRecord): Effect.Effect<Video, never, FileStore | ServiceConfig> =>
  presentVideos([video]).pipe(Effect.map((videos) => videos[0]!))

/** Many videos as presentVideo gives each, with their files read in one go: a page of a list. */
export const presentVideos = (videos: ReadonlyArray<VideoRecord>): Effect.Effect<ReadonlyArray<Video>, never, FileStore | ServiceConfig> =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const ids = videos.flatMap((v) => [v.videoFileId, v.thumbnailFileId].filter((id): id is string => id !== null))
    // A video still being made has no files yet: most polls need no look at the store.
    const files = new Map(ids.length === 0 ? [] : (yield* (yield* FileStore).getMany(ids)).map((f) => [f.id, f]))
    const link = (id: string | null) => linkOf(baseUrl, id === null ? undefined : files.get(id))
    return videos.map((video) =>
      toPublic(video, { editorUrl: editorUrl(baseUrl, video.editorToken), videoUrl: link(video.videoFileId), thumbnailUrl: link(video.thumbnailFileId) }))
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
