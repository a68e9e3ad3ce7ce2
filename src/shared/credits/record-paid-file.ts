// A synchronous operation's product (an mp3, a png) becomes a file and is paid for in one step: the
// file row and the charge are written together, and when the charge is refused the stored blob goes too,
// so a refused request leaves nothing behind.
import { Effect } from "effect"
import type { CreditOperation } from "../../../domain/credit-operation.ts"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { FileStore, type StoredFile } from "../../../domain/ports/file-store.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { newId } from "../../kernel/secrets.ts"
import { withSpan } from "../../kernel/spans.ts"

export const recordPaidFile = (
  file: StoredFile,
  charge: { readonly credits: number; readonly operation: CreditOperation; readonly reason: string }
) =>
  Effect.flatMap(Transactor, (transactor) =>
    transactor.atomically(Effect.gen(function*() {
      yield* (yield* Ledger).post({
        id: newId(),
        workspaceId: file.workspaceId,
        key: `${charge.operation}:${file.id}`,
        amount: -charge.credits,
        reason: charge.reason,
        operation: charge.operation,
        workKey: null,
        videoId: null,
        at: file.createdAt
      })
      yield* (yield* FileStore).insert(file)
    }))).pipe(
    Effect.tapError(() => Effect.flatMap(BlobStore, (blobs) => blobs.remove(file.blobKey))),
    withSpan("recordPaidFile", { attributes: { fileId: file.id, operation: charge.operation } })
  )
