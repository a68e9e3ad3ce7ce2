import { Context, type Effect, type Option } from "effect"
import type { ClipsRecord } from "../clips.ts"

export interface ClipsStoreShape {
  readonly insert: (clips: ClipsRecord) => Effect.Effect<void>
  /** Scoped by workspace: another workspace's record is `None`. */
  readonly get: (workspaceId: string, id: string) => Effect.Effect<Option.Option<ClipsRecord>>
  /** For workers, which act on behalf of the record's own workspace. */
  readonly getById: (id: string) => Effect.Effect<Option.Option<ClipsRecord>>
  /** As `getById`, and inside a transaction the record is held against other writers until it ends. */
  readonly getForUpdate: (id: string) => Effect.Effect<Option.Option<ClipsRecord>>
  readonly update: (clips: ClipsRecord) => Effect.Effect<void>
  /** The workspace's record that made this video one of its clips; `None` for a video made otherwise. */
  readonly findByVideo: (workspaceId: string, videoId: string) => Effect.Effect<Option.Option<ClipsRecord>>
}
export class ClipsStore extends Context.Tag("ClipsStore")<ClipsStore, ClipsStoreShape>() {}
