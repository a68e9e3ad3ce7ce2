import { Context, type Effect, type Option } from "effect"

/** A stored media file and its unguessable public link token. */
export interface StoredFile {
  readonly id: string
  readonly workspaceId: string
  /** Key in the BlobStore. */
  readonly blobKey: string
  /** Random; the public link is `/media/<token>/<name>`. */
  readonly token: string
  readonly name: string
  readonly contentType: string
  readonly bytes: number
  readonly createdAt: string
  /** Epoch ms after which the link stops working; null = kept. */
  readonly expiresAt: number | null
  readonly deletedAt: string | null
  /** When the expiry sweep removed the bytes; the file then stays expired whatever its plan becomes. */
  readonly purgedAt: string | null
}

export interface FileStoreShape {
  readonly insert: (file: StoredFile) => Effect.Effect<void>
  readonly get: (id: string) => Effect.Effect<Option.Option<StoredFile>>
  /** The files among `ids` that exist, in no order: one read for a page of records that link files. */
  readonly getMany: (ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<StoredFile>>
  readonly getByToken: (token: string) => Effect.Effect<Option.Option<StoredFile>>
  readonly markDeleted: (id: string, at: string) => Effect.Effect<void>
  /**
   * Dates the expiry of every file of the workspace that is neither deleted nor purged `retentionMs`
   * after it was stored (null: kept): a new plan's retention, counted from each upload.
   */
  readonly setRetention: (workspaceId: string, retentionMs: number | null) => Effect.Effect<void>
  /** Files expired at `now` whose bytes are still stored (neither deleted nor purged), soonest expired first. */
  readonly listExpired: (now: number, limit: number) => Effect.Effect<ReadonlyArray<StoredFile>>
  /**
   * Marks the file purged at `at`, only if it is then still expired and neither deleted nor purged (a
   * plan change may have kept it since it was listed): true when marked, and its bytes may go.
   */
  readonly markPurged: (id: string, at: string) => Effect.Effect<boolean>
}
export class FileStore extends Context.Tag("FileStore")<FileStore, FileStoreShape>() {}
