// Ledger on PostgreSQL: table ledger, a balance chain (pg-balance-chain.ts) whose posts are serialized per
// workspace by an advisory lock, so concurrent charges on any number of machines cannot spend the same credits.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { CreditOperation } from "../../domain/credit-operation.ts"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger, type LedgerEntry, type NewLedgerEntry } from "../../domain/ports/ledger.ts"
import { pgBalanceChain } from "./pg-balance-chain.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, NumberFromBigint } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const EntryRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  key: Schema.String,
  amount: NumberFromBigint,
  balance_after: NumberFromBigint,
  reason: Schema.String,
  operation: CreditOperation,
  work_key: Schema.NullOr(Schema.String),
  video_id: Schema.NullOr(Schema.String),
  at: IsoFromDate
}).pipe(Schema.rename({ workspace_id: "workspaceId", balance_after: "balanceAfter", work_key: "workKey", video_id: "videoId" }))

const entryRows = rowDecoder("ledger", EntryRow)

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
    const chain = pgBalanceChain<NewLedgerEntry, InsufficientCredits>(sql, {
      table: "ledger",
      lockPrefix: "ledger",
      entries: entryRows,
      toRow,
      refuse: (shortfall) => new InsufficientCredits(shortfall)
    })
    return Ledger.of({
      balance: (workspaceId) => chain.balance(workspaceId).pipe(withSpan("PgLedger.balance")),
      post: (entry) => chain.post(entry).pipe(withSpan("PgLedger.post")),
      entriesForWork: (workKey) =>
        sql`SELECT * FROM ledger WHERE work_key = ${workKey} ORDER BY seq`.pipe(
          Effect.flatMap(entryRows.all),
          Effect.orDie,
          withSpan("PgLedger.entriesForWork")
        ),
      list: (workspaceId) =>
        sql`SELECT * FROM ledger WHERE workspace_id = ${workspaceId} ORDER BY seq`.pipe(
          Effect.flatMap(entryRows.all),
          Effect.orDie,
          withSpan("PgLedger.list")
        ),
      page: ({ cursor, limit, videoId, workspaceId }) =>
        chain.page({ workspaceId, where: videoId === undefined ? [] : [sql`video_id = ${videoId}`], limit, cursor }).pipe(
          withSpan("PgLedger.page")
        )
    })
  })
)
