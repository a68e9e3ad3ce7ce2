// Ledger on PostgreSQL: table ledger. A post checks the balance and appends in one transaction that holds
// an advisory lock per workspace, so concurrent charges on any number of machines cannot spend the same
// credits. (The workspace row is not locked instead: entries do not require one to exist.)
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger, type LedgerEntry } from "../../domain/ports/ledger.ts"
import { fromBigint, isoText } from "./pg-values.ts"

interface EntryRow {
  readonly id: string
  readonly workspace_id: string
  readonly key: string
  readonly amount: string
  readonly reason: string
  readonly work_key: string | null
  readonly video_id: string | null
  readonly at: Date
}

const toEntry = (row: EntryRow): LedgerEntry => ({
  id: row.id,
  workspaceId: row.workspace_id,
  key: row.key,
  amount: fromBigint(row.amount),
  reason: row.reason,
  workKey: row.work_key,
  videoId: row.video_id,
  at: isoText(row.at)
})

export const PgLedgerLive = Layer.effect(
  Ledger,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const balance = (workspaceId: string) =>
      sql<{ readonly balance: string }>`SELECT COALESCE(SUM(amount), 0) AS balance FROM ledger
        WHERE workspace_id = ${workspaceId}`.pipe(Effect.map((rows) => fromBigint(rows[0]!.balance)))

    const byKey = (key: string) =>
      sql<EntryRow>`SELECT * FROM ledger WHERE key = ${key}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEntry))
      )

    const post = (entry: LedgerEntry) =>
      Effect.gen(function*() {
        yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ledger:${entry.workspaceId}`}, 0))`
        const first = yield* byKey(entry.key)
        if (Option.isSome(first)) return first.value
        const current = yield* balance(entry.workspaceId)
        if (entry.amount < 0 && current + entry.amount < 0) {
          return yield* new InsufficientCredits({ required: -entry.amount, balance: current })
        }
        // The key may have been taken meanwhile by a post for another workspace (it holds another lock).
        const inserted = yield* sql`INSERT INTO ledger (id, workspace_id, key, amount, reason, work_key, video_id, at)
          VALUES (${entry.id}, ${entry.workspaceId}, ${entry.key}, ${entry.amount}, ${entry.reason}, ${entry.workKey},
            ${entry.videoId}, ${entry.at})
          ON CONFLICT (key) DO NOTHING RETURNING id`
        return inserted.length > 0 ? entry : Option.getOrThrow(yield* byKey(entry.key))
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
        )
    })
  })
)
