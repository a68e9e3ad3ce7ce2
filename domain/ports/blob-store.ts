import { Context, type Effect, type Option, type Stream } from "effect"

/** Bytes by key. No process may assume it shares a disk with another: always go through this port. */
export interface BlobStoreShape {
  /** Stores a local file under `key` (moving or copying it). */
  readonly putFile: (key: string, localPath: string) => Effect.Effect<{ readonly bytes: number }>
  /**
   * Puts the blob at a local path for tools (ffmpeg) that need one. Read it, never write it: on the local
   * disk it may be the stored file itself under a second name.
   */
  readonly getFile: (key: string, localPath: string) => Effect.Effect<void>
  readonly size: (key: string) => Effect.Effect<number>
  /** Bytes `start..end` inclusive (whole blob when omitted). */
  readonly read: (key: string, range?: { readonly start: number; readonly end: number }) => Stream.Stream<Uint8Array>
  readonly remove: (key: string) => Effect.Effect<void>
  /**
   * A temporary URL that serves the blob straight from the store, for clients to fetch without this
   * service in the path. None for stores that cannot sign one (the local disk).
   */
  readonly signedUrl: (
    key: string,
    options: { readonly expiresInSeconds: number; readonly fileName: string; readonly contentType: string }
  ) => Effect.Effect<Option.Option<string>>
}
export class BlobStore extends Context.Tag("BlobStore")<BlobStore, BlobStoreShape>() {}
