import { Context, type Effect, type Stream } from "effect"

/** Bytes by key. No process may assume it shares a disk with another: always go through this port. */
export interface BlobStoreShape {
  /** Stores a local file under `key` (moving or copying it). */
  readonly putFile: (key: string, localPath: string) => Effect.Effect<{ readonly bytes: number }>
  /** Copies the blob to a local file for tools (ffmpeg) that need a path. */
  readonly getFile: (key: string, localPath: string) => Effect.Effect<void>
  readonly size: (key: string) => Effect.Effect<number>
  /** Bytes `start..end` inclusive (whole blob when omitted). */
  readonly read: (key: string, range?: { readonly start: number; readonly end: number }) => Stream.Stream<Uint8Array>
  readonly remove: (key: string) => Effect.Effect<void>
}
export class BlobStore extends Context.Tag("BlobStore")<BlobStore, BlobStoreShape>() {}
