// Ledger on PostgreSQL: table ledger, a balance chain (pg-balance-chain.ts) whose posts are serialized per
// workspace by an advisory lock, so concurrent charges on any number of machines cannot spend the same credits.
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import type { CreditOperation } from "../../domain/credit-operation.ts"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger, type LedgerEntry, type NewLedgerEntry } from "../../domain/ports/ledger.ts"
import { pgBalanceChain } from "./pg-balance-chain.ts"
import { fromBigint, isoText } from "./pg-values.ts"

interface EntryRow {
  readonly id: string
  readonly seq: string
  readonly workspace_id: string
  readonly key: string
  readonly amount: string
  readonly balance_after: string
  readonly reason: string
  readonly operation: CreditOperation
  readonly work_key: string | null
  readonly video_id: string | null
  readonly at: Date
}

const toEntry = (row: EntryRow): LedgerEntry => ({
  id: row.id,
  workspaceId: row.workspace_id,
  key: row.key,
  amount: fromBigint(row.amount),
  balanceAfter: fromBigint(row.balance_after),
  reason: row.reason,
  operation: row.operation,
  workKey: row.work_key,
  videoId: row.video_id,
  at: isoText(row.at)
})

const toRow = (entry: LedgerEntry) => ({
  id: entry.id,
  workspace_id: entry.workspaceId,
  key: entry.key,
  amount: entry.amount,
  balance_after: entry.balanceAfter,
  reason: entry.reason,
  operation: entry.operation,
  work_key: entry.workKey,
  video_id: entry.videoId,
  at: entry.at
})

export const PgLedgerLive = Layer.effect(
  Ledger,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const chain = pgBalanceChain<EntryRow, NewLedgerEntry, InsufficientCredits>(sql, {
      table: "ledger",
      lockPrefix: "ledger",
      toEntry,
      toRow,
      refuse: (shortfall) => new InsufficientCredits(shortfall)
    })
    return Ledger.of({
      balance: (workspaceId) => chain.balance(workspaceId).pipe(Effect.withSpan("PgLedger.balance")),
      post: (entry) => chain.post(entry).pipe(Effect.withSpan("PgLedger.post")),
      entriesForWork: (workKey) =>
        sql<EntryRow>`SELECT * FROM ledger WHERE work_key = ${workKey} ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map(toEntry)),
          Effect.orDie,
          Effect.withSpan("PgLedger.entriesForWork")
        ),
      list: (workspaceId) =>
        sql<EntryRow>`SELECT * FROM ledger WHERE workspace_id = ${workspaceId} ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map(toEntry)),
          Effect.orDie,
          Effect.withSpan("PgLedger.list")
        ),
      page: ({ cursor, limit, videoId, workspaceId }) =>
        chain.page({ workspaceId, where: videoId === undefined ? [] : [sql`video_id = ${videoId}`], limit, cursor }).pipe(
          Effect.withSpan("PgLedger.page")
        )
    })
  })
)
