// ProviderKeyStore on PostgreSQL: table provider_keys, one row per workspace and provider.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { ProviderKeyStore } from "../../domain/ports/provider-key-store.ts"
import { Provider } from "../../domain/provider-key.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const ProviderKeyRow = Schema.Struct({
  workspace_id: Schema.String,
  provider: Provider,
  sealed_key: Schema.String,
  last_four: Schema.String,
  created_at: IsoFromDate
}).pipe(Schema.rename({ workspace_id: "workspaceId", sealed_key: "sealedKey", last_four: "lastFour", created_at: "createdAt" }))

const providerKeyRows = rowDecoder("provider_keys", ProviderKeyRow, ["workspace_id", "provider"])

export const PgProviderKeyStoreLive = Layer.effect(
  ProviderKeyStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    ProviderKeyStore.of({
      put: (key) =>
        sql`INSERT INTO provider_keys (workspace_id, provider, sealed_key, last_four, created_at)
          VALUES (${key.workspaceId}, ${key.provider}, ${key.sealedKey}, ${key.lastFour}, ${key.createdAt})
          ON CONFLICT (workspace_id, provider) DO UPDATE
            SET sealed_key = EXCLUDED.sealed_key, last_four = EXCLUDED.last_four, created_at = EXCLUDED.created_at`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgProviderKeyStore.put")
        ),
      get: (workspaceId, provider) =>
        sql`SELECT * FROM provider_keys WHERE workspace_id = ${workspaceId} AND provider = ${provider}`.pipe(
          Effect.flatMap(providerKeyRows.first),
          Effect.orDie,
          withSpan("PgProviderKeyStore.get")
        ),
      list: (workspaceId) =>
        sql`SELECT * FROM provider_keys WHERE workspace_id = ${workspaceId} ORDER BY provider COLLATE "C"`.pipe(
          Effect.flatMap(providerKeyRows.all),
          Effect.orDie,
          withSpan("PgProviderKeyStore.list")
        ),
      remove: (workspaceId, provider) =>
        sql`DELETE FROM provider_keys WHERE workspace_id = ${workspaceId} AND provider = ${provider} RETURNING provider`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          withSpan("PgProviderKeyStore.remove")
        )
    }))
)
