// ProviderKeyStore on PostgreSQL: table provider_keys, one row per workspace and provider.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { ProviderKeyStore, type StoredProviderKey } from "../../domain/ports/provider-key-store.ts"
import type { Provider } from "../../domain/provider-key.ts"
import { isoText } from "./pg-values.ts"

interface ProviderKeyRow {
  readonly workspace_id: string
  readonly provider: Provider
  readonly sealed_key: string
  readonly last_four: string
  readonly created_at: Date
}

const toKey = (row: ProviderKeyRow): StoredProviderKey => ({
  workspaceId: row.workspace_id,
  provider: row.provider,
  sealedKey: row.sealed_key,
  lastFour: row.last_four,
  createdAt: isoText(row.created_at)
})

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
          Effect.withSpan("PgProviderKeyStore.put")
        ),
      get: (workspaceId, provider) =>
        sql<ProviderKeyRow>`SELECT * FROM provider_keys WHERE workspace_id = ${workspaceId} AND provider = ${provider}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toKey)),
          Effect.orDie,
          Effect.withSpan("PgProviderKeyStore.get")
        ),
      list: (workspaceId) =>
        sql<ProviderKeyRow>`SELECT * FROM provider_keys WHERE workspace_id = ${workspaceId} ORDER BY provider COLLATE "C"`.pipe(
          Effect.map((rows) => rows.map(toKey)),
          Effect.orDie,
          Effect.withSpan("PgProviderKeyStore.list")
        ),
      remove: (workspaceId, provider) =>
        sql`DELETE FROM provider_keys WHERE workspace_id = ${workspaceId} AND provider = ${provider} RETURNING provider`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.withSpan("PgProviderKeyStore.remove")
        )
    }))
)
