import { Clock, Effect, Option } from "effect"
import { WorkFailed } from "../../../domain/errors.ts"
import { fileAvailability, sourceExpiredMessage } from "../../../domain/file-retention.ts"
import { mkdir, rm } from "node:fs/promises"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { randomToken } from "../../kernel/secrets.ts"
import { scratchParent } from "../../kernel/scratch-space.ts"

/**
 * A private scratch folder for one job run or request, removed afterwards whatever happens; inside a
 * job it lies in the job's folder, which a later claim clears if this process is killed.
 */
export const withScratchDir = <A, E, R>(label: string, use: (dir: string) => Effect.Effect<A, E, R>) =>
  Effect.acquireUseRelease(
    Effect.flatMap(scratchParent, (parent) => {
      const dir = `${parent}/${label}-${randomToken("", 6)}`
      return Effect.promise(() => mkdir(dir, { recursive: true })).pipe(Effect.as(dir))
    }),
    use,
    (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
  )

/**
 * Puts a stored file in the scratch folder (linked or copied: see BlobStore.getFile), read only: media
 * tools want a local path. A file deleted or past its plan's retention is gone for the work too: the
 * work fails (and is refunded) saying which.
 */
export const localFile = (fileId: string, path: string) =>
  Effect.gen(function*() {
    const file = yield* (yield* FileStore).get(fileId).pipe(
      Effect.flatMap(Option.match({
        onNone: () => Effect.dieMessage(`file ${fileId} is not recorded`),
        onSome: Effect.succeed
      }))
    )
    switch (fileAvailability(file, yield* Clock.currentTimeMillis)) {
      case "deleted":
        return yield* new WorkFailed({
          message: `The file ${file.name} was deleted, so it can no longer be used. Create the video again from the file.`
        })
      case "expired":
        return yield* new WorkFailed({ message: sourceExpiredMessage(file.name) })
    }
    yield* (yield* BlobStore).getFile(file.blobKey, path)
    return path
  })

export const localSource = (video: { readonly sourceFileId: string | null; readonly id: string }, dir: string) =>
  video.sourceFileId === null
    ? Effect.dieMessage(`video ${video.id} has no stored source`)
    : localFile(video.sourceFileId, `${dir}/source`)
