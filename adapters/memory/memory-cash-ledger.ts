// CashLedger over the in-memory database.
import { Effect, Either, Layer, Option } from "effect"
import { InsufficientCash } from "../../domain/errors.ts"
import { CashLedger, type CashEntry } from "../../domain/ports/cash-ledger.ts"
import { entryPage } from "./memory-entry-page.ts"
import { MemoryDatabase, type Tables } from "./memory-database.ts"

/** Entries carry the balance after them: the workspace's last one holds its balance. */
const balanceOf = (t: Tables, workspaceId: string): number =>
  t.cashLedger.findLast((entry) => entry.workspaceId === workspaceId)?.balanceAfter ?? 0

export const MemoryCashLedgerLive = Layer.effect(
  CashLedger,
  Effect.map(MemoryDatabase, (db) =>
    CashLedger.of({
      balance: (workspaceId) => db.read((t) => balanceOf(t, workspaceId)).pipe(Effect.withSpan("MemoryCashLedger.balance")),
      // Check and append in one step, so concurrent charges cannot both spend the same cash.
      post: (entry) =>
        db.modify((t): readonly [Either.Either<CashEntry, InsufficientCash>, Tables] => {
          const first = t.cashLedger.find((e) => e.key === entry.key)
          if (first !== undefined) return [Either.right(first), t]
          const balance = balanceOf(t, entry.workspaceId)
          if (entry.amount < 0 && balance + entry.amount < 0) {
            return [Either.left(new InsufficientCash({ required: -entry.amount, balance })), t]
          }
          const posted = { ...entry, balanceAfter: balance + entry.amount }
          return [Either.right(posted), { ...t, cashLedger: [...t.cashLedger, posted] }]
        }).pipe(Effect.flatten, Effect.withSpan("MemoryCashLedger.post")),
      entry: (key) =>
        db.read((t) => Option.fromNullable(t.cashLedger.find((e) => e.key === key))).pipe(
          Effect.withSpan("MemoryCashLedger.entry")
        ),
      page: ({ cursor, limit, workspaceId }) =>
        db.read((t) => entryPage(t.cashLedger, (e) => e.workspaceId === workspaceId, limit, cursor)).pipe(
          Effect.withSpan("MemoryCashLedger.page")
        )
    }))
)
