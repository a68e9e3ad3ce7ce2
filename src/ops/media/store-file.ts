import { Clock, Effect } from "effect"
import { PLAN_RULES } from "../../../domain/plans.ts"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { FileStore, type StoredFile } from "../../../domain/ports/file-store.ts"
import type { Workspace } from "../../../domain/ports/workspace-store.ts"
import { newId, randomToken } from "../../kernel/secrets.ts"

const DAY_MS = 24 * 60 * 60 * 1000

/** Moves a local file into the BlobStore and records it with an unguessable link token. */
export const storeFile = (
  workspace: Pick<Workspace, "id" | "plan">,
  file: { readonly path: string; readonly name: string; readonly contentType: string }
): Effect.Effect<StoredFile, never, BlobStore | FileStore> =>
  Effect.gen(function*() {
    const now = yield* Clock.currentTimeMillis
    const id = newId()
    const blobKey = `${workspace.id}/${id}`
    const { bytes } = yield* (yield* BlobStore).putFile(blobKey, file.path)
    const retention = PLAN_RULES[workspace.plan].fileRetentionDays
    const stored: StoredFile = {
      id,
      workspaceId: workspace.id,
      blobKey,
      token: randomToken("", 24),
      name: file.name.replace(/[^\w.\-]+/g, "_").slice(-120) || "file",
      contentType: file.contentType,
      bytes,
      createdAt: new Date(now).toISOString(),
      expiresAt: retention === null ? null : now + retention * DAY_MS,
      deletedAt: null
    }
    yield* (yield* FileStore).insert(stored)
    return stored
  }).pipe(Effect.withSpan("storeFile"))
