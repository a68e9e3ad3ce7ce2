// Keeps a picture or clip for a workspace: checked by its content (not its name), capped by kind in
// bytes, probed for its size and length and capped by kind in pixels and frame rate, then stored with
// its record in one transaction.
import { Effect } from "effect"
import { InvalidInput } from "../../../../domain/errors.ts"
import { MAX_UPLOAD_BYTES, MOTION_OF, sniffMediaKind, SNIFF_BYTES } from "../../../../domain/media-kinds.ts"
import { pictureProblem } from "../../../../domain/picture-limits.ts"
import { BlobStore } from "../../../../domain/ports/blob-store.ts"
import { FileStore } from "../../../../domain/ports/file-store.ts"
import { Transactor } from "../../../../domain/ports/transactor.ts"
import { type Upload, UploadStore } from "../../../../domain/ports/upload-store.ts"
import type { Workspace } from "../../../../domain/ports/workspace-store.ts"
import { open, stat } from "node:fs/promises"
import { fileUrl } from "../../../kernel/links.ts"
import { ServiceConfig } from "../../../kernel/service-config.ts"
import { probeUpload } from "../../../shared/media/require-source.ts"
import { putFile } from "../../../shared/media/store-file.ts"
import { presentUpload } from "./file-object.ts"
import { withSpan } from "../../../kernel/spans.ts"

const firstBytes = (path: string) =>
  Effect.promise(async () => {
    const file = await open(path, "r")
    try {
      const buffer = Buffer.alloc(SNIFF_BYTES)
      const { bytesRead } = await file.read(buffer, 0, SNIFF_BYTES, 0)
      return buffer.subarray(0, bytesRead)
    } finally {
      await file.close()
    }
  })

const megabytes = (bytes: number): string => `${Math.round(bytes / 1e6)} MB`

/** `field` names where the file came from (`file` or `url`), so a refusal points at it. */
export const storeUpload = (workspace: Workspace, local: { readonly path: string; readonly name: string }, field: string) =>
  Effect.gen(function*() {
    const sniffed = sniffMediaKind(yield* firstBytes(local.path))
    if (sniffed === null) {
      return yield* new InvalidInput({ field, message: "the file is not an image, gif or video (PNG, JPEG, WebP, GIF, MP4, MOV or WebM)" })
    }
    const { size } = yield* Effect.promise(() => stat(local.path))
    const limit = MAX_UPLOAD_BYTES[sniffed.kind]
    if (size > limit) {
      return yield* new InvalidInput({ field, message: `a ${sniffed.kind} may be at most ${megabytes(limit)}; this one is ${megabytes(size)}` })
    }
    const facts = yield* probeUpload(local.path, field)
    if (!facts.hasVideo || facts.width === 0 || facts.height === 0) {
      return yield* new InvalidInput({ field, message: `the ${sniffed.kind} has no picture` })
    }
    const problem = pictureProblem(`The ${sniffed.kind}`, MOTION_OF[sniffed.kind], facts)
    if (problem !== null) return yield* new InvalidInput({ field, message: problem })
    const file = yield* putFile(workspace, { path: local.path, name: local.name, contentType: sniffed.contentType })
    const upload: Upload = {
      key: file.id,
      workspaceId: workspace.id,
      kind: sniffed.kind,
      name: file.name,
      contentType: sniffed.contentType,
      bytes: file.bytes,
      width: facts.width,
      height: facts.height,
      durationSeconds: sniffed.kind === "image" ? null : facts.durationSeconds,
      createdAt: file.createdAt
    }
    yield* (yield* Transactor).atomically(Effect.gen(function*() {
      yield* (yield* FileStore).insert(file)
      yield* (yield* UploadStore).insert(upload)
    })).pipe(Effect.tapError(() => Effect.flatMap(BlobStore, (blobs) => blobs.remove(file.blobKey))))
    const { baseUrl } = yield* ServiceConfig
    return presentUpload(upload, fileUrl(baseUrl, file))
  }).pipe(withSpan("storeUpload"))
