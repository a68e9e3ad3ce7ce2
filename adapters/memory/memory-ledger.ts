// Ledger over the in-memory database: a balance chain (memory-balance-chain.ts) over table ledger.
import { Effect, Layer } from "effect"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger, type NewLedgerEntry } from "../../domain/ports/ledger.ts"
import { memoryBalanceChain } from "./memory-balance-chain.ts"
import { MemoryDatabase } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryLedgerLive = Layer.effect(
  Ledger,
  Effect.map(MemoryDatabase, (db) => {
    const chain = memoryBalanceChain<NewLedgerEntry, InsufficientCredits>(db, {
      entries: (t) => t.ledger,
      withEntries: (t, ledger) => ({ ...t, ledger }),
      refuse: (shortfall) => new InsufficientCredits(shortfall)
    })
    return Ledger.of({
      balance: (workspaceId) => chain.balance(workspaceId).pipe(withSpan("MemoryLedger.balance")),
      post: (entry) => chain.post(entry).pipe(withSpan("MemoryLedger.post")),
      entriesForWork: (workKey) =>
        db.read((t) => t.ledger.filter((e) => e.workKey === workKey)).pipe(
          withSpan("MemoryLedger.entriesForWork")
        ),
      list: (workspaceId) =>
        db.read((t) => t.ledger.filter((e) => e.workspaceId === workspaceId)).pipe(withSpan("MemoryLedger.list")),
      page: ({ cursor, limit, videoId, workspaceId }) =>
        chain.page({ workspaceId, matches: (e) => videoId === undefined || e.videoId === videoId, limit, cursor }).pipe(
          withSpan("MemoryLedger.page")
        )
    })
  })
)
