// IdempotencyStore on PostgreSQL: table idempotency_keys.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { IdempotencyStore, type StoredResponse } from "../../domain/ports/idempotency-store.ts"
import { isoText, jsonText } from "./pg-values.ts"

interface ResponseRow {
  readonly workspace_id: string
  readonly key: string
  readonly fingerprint: string
  readonly response: unknown
  readonly created_at: Date
}

const toResponse = (row: ResponseRow): StoredResponse => ({
  workspaceId: row.workspace_id,
  key: row.key,
  fingerprint: row.fingerprint,
  response: row.response,
  createdAt: isoText(row.created_at)
})

export const PgIdempotencyStoreLive = Layer.effect(
  IdempotencyStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    IdempotencyStore.of({
      get: (workspaceId, key) =>
        sql<ResponseRow>`SELECT * FROM idempotency_keys WHERE workspace_id = ${workspaceId} AND key = ${key}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toResponse)),
          Effect.orDie,
          Effect.withSpan("PgIdempotencyStore.get")
        ),
      // The first response stored under a key stands.
      put: (entry) =>
        sql`INSERT INTO idempotency_keys (workspace_id, key, fingerprint, response, created_at)
          VALUES (${entry.workspaceId}, ${entry.key}, ${entry.fingerprint}, ${jsonText(entry.response)},
            ${entry.createdAt})
          ON CONFLICT (workspace_id, key) DO NOTHING`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgIdempotencyStore.put")
        )
    }))
)
