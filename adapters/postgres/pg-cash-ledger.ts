// CashLedger on PostgreSQL: table cash_ledger, amounts in micro-dollars. Posts are serialized per
// workspace by an advisory lock held to the end of the transaction, as the credit ledger's are.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { CashKind } from "../../domain/cash.ts"
import { InsufficientCash } from "../../domain/errors.ts"
import { CashLedger, type CashEntry, type NewCashEntry } from "../../domain/ports/cash-ledger.ts"
import { decodeLedgerCursor, encodeLedgerCursor } from "../ledger-cursor.ts"
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

export const PgCashLedgerLive = Layer.effect(
  CashLedger,
  Effect.map(SqlClient.SqlClient, (sql) => {
    // The newest entry holds the balance.
    const balance = (workspaceId: string) =>
      sql<{ readonly balance_after: string }>`SELECT balance_after FROM cash_ledger WHERE workspace_id = ${workspaceId}
        ORDER BY seq DESC LIMIT 1`.pipe(Effect.map((rows) => rows[0] === undefined ? 0 : fromBigint(rows[0].balance_after)))

    const byKey = (key: string) =>
      sql<CashRow>`SELECT * FROM cash_ledger WHERE key = ${key}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEntry))
      )

    const post = (entry: NewCashEntry) =>
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`cash:${entry.workspaceId}`}, 0))`
        const first = yield* byKey(entry.key)
        if (Option.isSome(first)) return first.value
        const current = yield* balance(entry.workspaceId)
        if (entry.amount < 0 && current + entry.amount < 0) {
          return yield* new InsufficientCash({ required: -entry.amount, balance: current })
        }
        const posted: CashEntry = { ...entry, balanceAfter: current + entry.amount }
        // The key may have been taken meanwhile by a post for another workspace (it holds another lock).
        const inserted = yield* sql`INSERT INTO cash_ledger (id, workspace_id, key, kind, amount, balance_after, note, video_id, at)
          VALUES (${posted.id}, ${posted.workspaceId}, ${posted.key}, ${posted.kind}, ${posted.amount}, ${posted.balanceAfter},
            ${posted.note}, ${posted.videoId}, ${posted.at})
          ON CONFLICT (key) DO NOTHING RETURNING id`
        return inserted.length > 0 ? posted : Option.getOrThrow(yield* byKey(entry.key))
      }).pipe(sql.withTransaction)

    return CashLedger.of({
      balance: (workspaceId) => balance(workspaceId).pipe(Effect.orDie, Effect.withSpan("PgCashLedger.balance")),
      post: (entry) => post(entry).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("PgCashLedger.post")),
      entry: (key) => byKey(key).pipe(Effect.orDie, Effect.withSpan("PgCashLedger.entry")),
      page: ({ cursor, limit, workspaceId }) => {
        // A cursor this adapter did not make points past the end: an empty page rather than a restart.
        const before = cursor === undefined ? Option.some(undefined) : decodeLedgerCursor(cursor)
        if (Option.isNone(before)) return Effect.succeed({ items: [], nextCursor: null }).pipe(Effect.withSpan("PgCashLedger.page"))
        const conditions = [
          sql`workspace_id = ${workspaceId}`,
          ...(before.value === undefined ? [] : [sql`seq < ${before.value}`])
        ]
        // One row past the page says whether another page follows.
        return sql<CashRow>`SELECT * FROM cash_ledger WHERE ${sql.and(conditions)} ORDER BY seq DESC LIMIT ${limit + 1}`.pipe(
          Effect.map((rows) => {
            const last = rows[limit - 1]
            return {
              items: rows.slice(0, limit).map(toEntry),
              nextCursor: rows.length > limit && last !== undefined ? encodeLedgerCursor(fromBigint(last.seq)) : null
            }
          }),
          Effect.orDie,
          Effect.withSpan("PgCashLedger.page")
        )
      }
    })
  })
)
