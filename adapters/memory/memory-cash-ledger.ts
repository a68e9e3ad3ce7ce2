// CashLedger over the in-memory database: a balance chain (memory-balance-chain.ts) over table cashLedger.
import { Effect, Layer } from "effect"
import { InsufficientCash } from "../../domain/errors.ts"
import { CashLedger, type NewCashEntry } from "../../domain/ports/cash-ledger.ts"
import { memoryBalanceChain } from "./memory-balance-chain.ts"
import { MemoryDatabase } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryCashLedgerLive = Layer.effect(
  CashLedger,
  Effect.map(MemoryDatabase, (db) => {
    const chain = memoryBalanceChain<NewCashEntry, InsufficientCash>(db, {
      entries: (t) => t.cashLedger,
      withEntries: (t, cashLedger) => ({ ...t, cashLedger }),
      refuse: (shortfall) => new InsufficientCash(shortfall)
    })
    return CashLedger.of({
      balance: (workspaceId) => chain.balance(workspaceId).pipe(withSpan("MemoryCashLedger.balance")),
      post: (entry) => chain.post(entry).pipe(withSpan("MemoryCashLedger.post")),
      entry: (key) => chain.byKey(key).pipe(withSpan("MemoryCashLedger.entry")),
      page: ({ cursor, limit, workspaceId }) =>
        chain.page({ workspaceId, matches: () => true, limit, cursor }).pipe(withSpan("MemoryCashLedger.page"))
    })
  })
)
