// Ledger over the in-memory database.
import { Effect, Either, Layer } from "effect"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger, type LedgerEntry } from "../../domain/ports/ledger.ts"
import { entryPage } from "./memory-entry-page.ts"
import { MemoryDatabase, type Tables } from "./memory-database.ts"

/** Entries carry the balance after them: the workspace's last one holds its balance. */
const balanceOf = (t: Tables, workspaceId: string): number =>
  t.ledger.findLast((entry) => entry.workspaceId === workspaceId)?.balanceAfter ?? 0

export const MemoryLedgerLive = Layer.effect(
  Ledger,
  Effect.map(MemoryDatabase, (db) =>
    Ledger.of({
      balance: (workspaceId) => db.read((t) => balanceOf(t, workspaceId)).pipe(Effect.withSpan("MemoryLedger.balance")),
      // Check and append in one step, so concurrent charges cannot both spend the same credits.
      post: (entry) =>
        db.modify((t): readonly [Either.Either<LedgerEntry, InsufficientCredits>, Tables] => {
          const first = t.ledger.find((e) => e.key === entry.key)
          if (first !== undefined) return [Either.right(first), t]
          const balance = balanceOf(t, entry.workspaceId)
          if (entry.amount < 0 && balance + entry.amount < 0) {
            return [Either.left(new InsufficientCredits({ required: -entry.amount, balance })), t]
          }
          const posted = { ...entry, balanceAfter: balance + entry.amount }
          return [Either.right(posted), { ...t, ledger: [...t.ledger, posted] }]
        }).pipe(Effect.flatten, Effect.withSpan("MemoryLedger.post")),
      entriesForWork: (workKey) =>
        db.read((t) => t.ledger.filter((e) => e.workKey === workKey)).pipe(
          Effect.withSpan("MemoryLedger.entriesForWork")
        ),
      list: (workspaceId) =>
        db.read((t) => t.ledger.filter((e) => e.workspaceId === workspaceId)).pipe(Effect.withSpan("MemoryLedger.list")),
      page: ({ cursor, limit, videoId, workspaceId }) =>
        db.read((t) =>
          entryPage(
            t.ledger,
            (e) => e.workspaceId === workspaceId && (videoId === undefined || e.videoId === videoId),
            limit,
            cursor
          )
        ).pipe(Effect.withSpan("MemoryLedger.page"))
    }))
)
