// CashLedger on PostgreSQL: table cash_ledger, amounts in micro-dollars, a balance chain (pg-balance-chain.ts)
// as the credit ledger is, with its own per-workspace lock.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { CashKind } from "../../domain/cash.ts"
import { InsufficientCash } from "../../domain/errors.ts"
import { CashLedger, type CashEntry, type NewCashEntry } from "../../domain/ports/cash-ledger.ts"
import { pgBalanceChain } from "./pg-balance-chain.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, NumberFromBigint } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const CashRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  key: Schema.String,
  kind: CashKind,
  amount: NumberFromBigint,
  balance_after: NumberFromBigint,
  note: Schema.NullOr(Schema.String),
  video_id: Schema.NullOr(Schema.String),
  at: IsoFromDate
}).pipe(Schema.rename({ workspace_id: "workspaceId", balance_after: "balanceAfter", video_id: "videoId" }))

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
    const chain = pgBalanceChain<NewCashEntry, InsufficientCash>(sql, {
      table: "cash_ledger",
      lockPrefix: "cash",
      entries: rowDecoder("cash_ledger", CashRow),
      toRow,
      refuse: (shortfall) => new InsufficientCash(shortfall)
    })
    return CashLedger.of({
      balance: (workspaceId) => chain.balance(workspaceId).pipe(withSpan("PgCashLedger.balance")),
      post: (entry) => chain.post(entry).pipe(withSpan("PgCashLedger.post")),
      entry: (key) => chain.byKey(key).pipe(withSpan("PgCashLedger.entry")),
      page: ({ cursor, limit, workspaceId }) =>
        chain.page({ workspaceId, where: [], limit, cursor }).pipe(withSpan("PgCashLedger.page"))
    })
  })
)
