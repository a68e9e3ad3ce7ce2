// Ledger over the in-memory database.
import { Effect, Either, Layer } from "effect"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger, type LedgerEntry } from "../../domain/ports/ledger.ts"
import { MemoryDatabase, type Tables } from "./memory-database.ts"

const balanceOf = (t: Tables, workspaceId: string): number =>
  t.ledger.reduce((sum, entry) => entry.workspaceId === workspaceId ? sum + entry.amount : sum, 0)

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
          return [Either.right(entry), { ...t, ledger: [...t.ledger, entry] }]
        }).pipe(Effect.flatten, Effect.withSpan("MemoryLedger.post")),
      entriesForWork: (workKey) =>
        db.read((t) => t.ledger.filter((e) => e.workKey === workKey)).pipe(
          Effect.withSpan("MemoryLedger.entriesForWork")
        ),
      list: (workspaceId) =>
        db.read((t) => t.ledger.filter((e) => e.workspaceId === workspaceId)).pipe(Effect.withSpan("MemoryLedger.list"))
    }))
)
