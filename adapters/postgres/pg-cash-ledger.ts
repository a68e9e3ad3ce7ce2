// CashLedger on PostgreSQL: table cash_ledger, amounts in micro-dollars, a balance chain (pg-balance-chain.ts)
// as the credit ledger is, with its own per-workspace lock.
import { SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import type { CashKind } from "../../domain/cash.ts"
import { InsufficientCash } from "../../domain/errors.ts"
import { CashLedger, type CashEntry, type NewCashEntry } from "../../domain/ports/cash-ledger.ts"
import { pgBalanceChain } from "./pg-balance-chain.ts"
import { fromBigint, isoText } from "./pg-values.ts"

interface CashRow {
  readonly id: string
  readonly seq: string
  readonly workspace_id: string
  readonly key: string
  readonly kind: CashKind
  readonly amount: string
  readonly balance_after: string
  readonly note: string | null
  readonly video_id: string | null
  readonly at: Date
}

const toEntry = (row: CashRow): CashEntry => ({
  id: row.id,
  workspaceId: row.workspace_id,
  key: row.key,
  kind: row.kind,
  amount: fromBigint(row.amount),
  balanceAfter: fromBigint(row.balance_after),
  note: row.note,
  videoId: row.video_id,
  at: isoText(row.at)
})

const toRow = (entry: CashEntry) => ({
  id: entry.id,
  workspace_id: entry.workspaceId,
  key: entry.key,
  kind: entry.kind,
  amount: entry.amount,
  balance_after: entry.balanceAfter,
  note: entry.note,
  video_id: entry.videoId,
  at: entry.at
})

export const PgCashLedgerLive = Layer.effect(
  CashLedger,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const chain = pgBalanceChain<CashRow, NewCashEntry, InsufficientCash>(sql, {
      table: "cash_ledger",
      lockPrefix: "cash",
      toEntry,
      toRow,
      refuse: (shortfall) => new InsufficientCash(shortfall)
    })
    return CashLedger.of({
      balance: (workspaceId) => chain.balance(workspaceId).pipe(Effect.withSpan("PgCashLedger.balance")),
      post: (entry) => chain.post(entry).pipe(Effect.withSpan("PgCashLedger.post")),
      entry: (key) => chain.byKey(key).pipe(Effect.withSpan("PgCashLedger.entry")),
      page: ({ cursor, limit, workspaceId }) =>
        chain.page({ workspaceId, where: [], limit, cursor }).pipe(Effect.withSpan("PgCashLedger.page"))
    })
  })
)
