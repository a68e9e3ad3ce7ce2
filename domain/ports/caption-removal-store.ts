import { Context, type Effect, type Option } from "effect"
import type { CaptionRemovalRecord } from "../caption-removal.ts"

export interface CaptionRemovalStoreShape {
  readonly insert: (removal: CaptionRemovalRecord) => Effect.Effect<void>
  /** Scoped by workspace: another workspace's removal is `None`. */
  readonly get: (workspaceId: string, id: string) => Effect.Effect<Option.Option<CaptionRemovalRecord>>
  /** For workers, which act on behalf of the record's own workspace. */
  readonly getById: (id: string) => Effect.Effect<Option.Option<CaptionRemovalRecord>>
  /**
   * As `getById`, and inside a transaction the record is held against other writers until it ends:
   * every change of state reads through this, so two of them never overwrite each other.
   */
  readonly getForUpdate: (id: string) => Effect.Effect<Option.Option<CaptionRemovalRecord>>
  readonly update: (removal: CaptionRemovalRecord) => Effect.Effect<void>
}
export class CaptionRemovalStore
  extends Context.Tag("CaptionRemovalStore")<CaptionRemovalStore, CaptionRemovalStoreShape>()
{}
