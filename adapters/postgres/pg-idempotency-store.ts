// IdempotencyStore on PostgreSQL: table idempotency_keys, a pending reservation while response is NULL.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { IdempotencyStore } from "../../domain/ports/idempotency-store.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, jsonText } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const KeyRow = Schema.Struct({
  workspace_id: Schema.String,
  key: Schema.String,
  fingerprint: Schema.String,
  holder: Schema.String,
  reserved_at: IsoFromDate,
  // Whatever the holder answered (json: kept as it was written, key order included); NULL while it runs.
  response: Schema.OptionFromNullOr(Schema.Unknown)
}).pipe(Schema.rename({ workspace_id: "workspaceId", reserved_at: "reservedAt" }))

const keyRows = rowDecoder("idempotency_keys", KeyRow, ["workspace_id", "key"])

export const PgIdempotencyStoreLive = Layer.effect(
  IdempotencyStore,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const held = (holder: string) => sql`holder = ${holder} AND response IS NULL`
    return IdempotencyStore.of({
      // One statement: the conflicting row is locked and read as last committed, so of concurrent claims one
      // inserts and the others see it. The update always runs (to return the row) but changes only a stale one.
      reserve: (claim) => {
        const stale = sql`k.response IS NULL AND k.reserved_at < ${claim.staleBefore}`
        return sql`INSERT INTO idempotency_keys AS k (workspace_id, key, fingerprint, holder, reserved_at, response)
          VALUES (${claim.workspaceId}, ${claim.key}, ${claim.fingerprint}, ${claim.holder}, ${claim.reservedAt}, NULL)
          ON CONFLICT (workspace_id, key) DO UPDATE SET
            fingerprint = CASE WHEN ${stale} THEN EXCLUDED.fingerprint ELSE k.fingerprint END,
            holder = CASE WHEN ${stale} THEN EXCLUDED.holder ELSE k.holder END,
            reserved_at = CASE WHEN ${stale} THEN EXCLUDED.reserved_at ELSE k.reserved_at END
          RETURNING *`.pipe(
          Effect.flatMap((rows) => keyRows.one(rows[0])),
          Effect.orDie,
          withSpan("PgIdempotencyStore.reserve")
        )
      },
      get: (workspaceId, key) =>
        sql`SELECT * FROM idempotency_keys WHERE workspace_id = ${workspaceId} AND key = ${key}`.pipe(
          Effect.flatMap(keyRows.first),
          Effect.orDie,
          withSpan("PgIdempotencyStore.get")
        ),
      answer: (workspaceId, key, holder, response) =>
        sql`UPDATE idempotency_keys SET response = ${jsonText(response)}
          WHERE workspace_id = ${workspaceId} AND key = ${key} AND ${held(holder)}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgIdempotencyStore.answer")
        ),
      release: (workspaceId, key, holder) =>
        sql`DELETE FROM idempotency_keys WHERE workspace_id = ${workspaceId} AND key = ${key} AND ${held(holder)}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgIdempotencyStore.release")
        )
    })
  })
)
