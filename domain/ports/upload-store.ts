import { Context, type Effect, type Option } from "effect"
import type { MediaKind } from "../media-kinds.ts"

/** A picture or clip a workspace uploaded to use in its videos (visuals, gameplay footage). */
export interface Upload {
  /** What the API calls the file's `key`: its stored file's id. */
  readonly key: string
  readonly workspaceId: string
  readonly kind: MediaKind
  readonly name: string
  readonly contentType: string
  readonly bytes: number
  readonly width: number
  readonly height: number
  /** Seconds, for videos and animated gifs; null for stills. */
  readonly durationSeconds: number | null
  readonly createdAt: string
}

export interface UploadPage {
  readonly items: ReadonlyArray<Upload>
  readonly nextCursor: string | null
}

export interface UploadStoreShape {
  readonly insert: (upload: Upload) => Effect.Effect<void>
  /** Scoped by workspace: another workspace's upload is `None`. */
  readonly get: (workspaceId: string, key: string) => Effect.Effect<Option.Option<Upload>>
  /** Newest first. The cursor is opaque to callers. */
  readonly list: (query: {
    readonly workspaceId: string
    readonly limit: number
    readonly cursor: string | undefined
  }) => Effect.Effect<UploadPage>
}
export class UploadStore extends Context.Tag("UploadStore")<UploadStore, UploadStoreShape>() {}
