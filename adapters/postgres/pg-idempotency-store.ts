// IdempotencyStore on PostgreSQL: table idempotency_keys, a pending reservation while response is NULL.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { IdempotencyStore, type KeyedRequest } from "../../domain/ports/idempotency-store.ts"
import { isoText, jsonText } from "./pg-values.ts"

interface KeyRow {
  readonly workspace_id: string
  readonly key: string
  readonly fingerprint: string
  readonly holder: string
  readonly reserved_at: Date
  readonly response: unknown
}

const toKeyedRequest = (row: KeyRow): KeyedRequest => ({
  workspaceId: row.workspace_id,
  key: row.key,
  fingerprint: row.fingerprint,
  holder: row.holder,
  reservedAt: isoText(row.reserved_at),
  response: Option.fromNullable(row.response)
})

export const PgIdempotencyStoreLive = Layer.effect(
  IdempotencyStore,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const held = (holder: string) => sql`holder = ${holder} AND response IS NULL`
    return IdempotencyStore.of({
      // One statement: the conflicting row is locked and read as last committed, so of concurrent claims one
      // inserts and the others see it. The update always runs (to return the row) but changes only a stale one.
      reserve: (claim) => {
        const stale = sql`k.response IS NULL AND k.reserved_at < ${claim.staleBefore}`
        return sql<KeyRow>`INSERT INTO idempotency_keys AS k (workspace_id, key, fingerprint, holder, reserved_at, response)
          VALUES (${claim.workspaceId}, ${claim.key}, ${claim.fingerprint}, ${claim.holder}, ${claim.reservedAt}, NULL)
          ON CONFLICT (workspace_id, key) DO UPDATE SET
            fingerprint = CASE WHEN ${stale} THEN EXCLUDED.fingerprint ELSE k.fingerprint END,
            holder = CASE WHEN ${stale} THEN EXCLUDED.holder ELSE k.holder END,
            reserved_at = CASE WHEN ${stale} THEN EXCLUDED.reserved_at ELSE k.reserved_at END
          RETURNING *`.pipe(
          Effect.map((rows) => toKeyedRequest(rows[0]!)),
          Effect.orDie,
          Effect.withSpan("PgIdempotencyStore.reserve")
        )
      },
      get: (workspaceId, key) =>
        sql<KeyRow>`SELECT * FROM idempotency_keys WHERE workspace_id = ${workspaceId} AND key = ${key}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toKeyedRequest)),
          Effect.orDie,
          Effect.withSpan("PgIdempotencyStore.get")
        ),
      answer: (workspaceId, key, holder, response) =>
        sql`UPDATE idempotency_keys SET response = ${jsonText(response)}
          WHERE workspace_id = ${workspaceId} AND key = ${key} AND ${held(holder)}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgIdempotencyStore.answer")
        ),
      release: (workspaceId, key, holder) =>
        sql`DELETE FROM idempotency_keys WHERE workspace_id = ${workspaceId} AND key = ${key} AND ${held(holder)}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgIdempotencyStore.release")
        )
    })
  })
)
