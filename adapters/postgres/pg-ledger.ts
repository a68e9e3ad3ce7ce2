// Ledger on PostgreSQL: table ledger. A post reads the balance and appends in one transaction that holds
// an advisory lock per workspace, so concurrent charges on any number of machines cannot spend the same
// credits, and each entry's balance_after follows the one before it. (The workspace row is not locked
// instead: entries do not require one to exist.)
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { CreditOperation } from "../../domain/credit-operation.ts"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger, type LedgerEntry, type NewLedgerEntry } from "../../domain/ports/ledger.ts"
import { decodeLedgerCursor, encodeLedgerCursor } from "../ledger-cursor.ts"
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

export const PgLedgerLive = Layer.effect(
  Ledger,
  Effect.map(SqlClient.SqlClient, (sql) => {
    // The newest entry holds the balance.
    const balance = (workspaceId: string) =>
      sql<{ readonly balance_after: string }>`SELECT balance_after FROM ledger WHERE workspace_id = ${workspaceId}
        ORDER BY seq DESC LIMIT 1`.pipe(Effect.map((rows) => rows[0] === undefined ? 0 : fromBigint(rows[0].balance_after)))

    const byKey = (key: string) =>
      sql<EntryRow>`SELECT * FROM ledger WHERE key = ${key}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEntry))
      )

    const post = (entry: NewLedgerEntry) =>
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ledger:${entry.workspaceId}`}, 0))`
        const first = yield* byKey(entry.key)
        if (Option.isSome(first)) return first.value
        const current = yield* balance(entry.workspaceId)
        if (entry.amount < 0 && current + entry.amount < 0) {
          return yield* new InsufficientCredits({ required: -entry.amount, balance: current })
        }
        const posted: LedgerEntry = { ...entry, balanceAfter: current + entry.amount }
        // The key may have been taken meanwhile by a post for another workspace (it holds another lock).
        const inserted = yield* sql`INSERT INTO ledger
            (id, workspace_id, key, amount, balance_after, reason, operation, work_key, video_id, at)
          VALUES (${posted.id}, ${posted.workspaceId}, ${posted.key}, ${posted.amount}, ${posted.balanceAfter},
            ${posted.reason}, ${posted.operation}, ${posted.workKey}, ${posted.videoId}, ${posted.at})
          ON CONFLICT (key) DO NOTHING RETURNING id`
        return inserted.length > 0 ? posted : Option.getOrThrow(yield* byKey(entry.key))
      }).pipe(sql.withTransaction)

    return Ledger.of({
      balance: (workspaceId) => balance(workspaceId).pipe(Effect.orDie, Effect.withSpan("PgLedger.balance")),
      post: (entry) => post(entry).pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("PgLedger.post")),
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
      page: ({ cursor, limit, videoId, workspaceId }) => {
        // A cursor this adapter did not make points past the end: an empty page rather than a restart.
        const before = cursor === undefined ? Option.some(undefined) : decodeLedgerCursor(cursor)
        if (Option.isNone(before)) return Effect.succeed({ items: [], nextCursor: null }).pipe(Effect.withSpan("PgLedger.page"))
        const conditions = [
          sql`workspace_id = ${workspaceId}`,
          ...(videoId === undefined ? [] : [sql`video_id = ${videoId}`]),
          ...(before.value === undefined ? [] : [sql`seq < ${before.value}`])
        ]
        // One row past the page says whether another page follows.
        return sql<EntryRow>`SELECT * FROM ledger WHERE ${sql.and(conditions)} ORDER BY seq DESC LIMIT ${limit + 1}`.pipe(
          Effect.map((rows) => {
            const last = rows[limit - 1]
            return {
              items: rows.slice(0, limit).map(toEntry),
              nextCursor: rows.length > limit && last !== undefined ? encodeLedgerCursor(fromBigint(last.seq)) : null
            }
          }),
          Effect.orDie,
          Effect.withSpan("PgLedger.page")
        )
      }
    })
  })
)
