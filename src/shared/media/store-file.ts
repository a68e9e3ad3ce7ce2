import { Clock, Effect } from "effect"
import { fileExpiresAt } from "../../../domain/file-retention.ts"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { FileStore, type StoredFile } from "../../../domain/ports/file-store.ts"
import type { Workspace } from "../../../domain/ports/workspace-store.ts"
import { newId, randomToken } from "../../kernel/secrets.ts"
import { withSpan } from "../../kernel/spans.ts"

export interface LocalFile {
  readonly path: string
  readonly name: string
  readonly contentType: string
}

/**
 * Moves a local file into the BlobStore and returns its record, not yet inserted: an unguessable
 * link token, a safe name, and the plan's retention.
 */
export const putFile = (
  workspace: Pick<Workspace, "id" | "plan">,
  file: LocalFile
): Effect.Effect<StoredFile, never, BlobStore> =>
  Effect.gen(function*() {
    const id = newId()
    const blobKey = `${workspace.id}/${id}`
    const { bytes } = yield* (yield* BlobStore).putFile(blobKey, file.path)
    const now = yield* Clock.currentTimeMillis
    return {
      id,
      workspaceId: workspace.id,
      blobKey,
      token: randomToken("", 24),
      name: file.name.replace(/[^\w.\-]+/g, "_").slice(-120) || "file",
      contentType: file.contentType,
      bytes,
      createdAt: new Date(now).toISOString(),
      expiresAt: fileExpiresAt(workspace.plan, now),
      deletedAt: null,
      purgedAt: null
    }
  }).pipe(withSpan("putFile"))

/** Moves a local file into the BlobStore and records it. */
export const storeFile = (
  workspace: Pick<Workspace, "id" | "plan">,
  file: LocalFile
): Effect.Effect<StoredFile, never, BlobStore | FileStore> =>
  Effect.gen(function*() {
    const stored = yield* putFile(workspace, file)
    yield* (yield* FileStore).insert(stored)
    return stored
  }).pipe(withSpan("storeFile"))
