// WebhookSecretStore on PostgreSQL: table webhook_secrets. An add holds its workspace's advisory lock
// while it counts the active secrets, so concurrent adds on any number of machines keep the limit.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { WebhookSecretStore } from "../../domain/ports/webhook-secret-store.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const WebhookSecretRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  secret: Schema.String,
  created_at: IsoFromDate,
  expires_at: Schema.NullOr(IsoFromDate)
}).pipe(Schema.rename({ workspace_id: "workspaceId", created_at: "createdAt", expires_at: "expiresAt" }))

const secretRows = rowDecoder("webhook_secrets", WebhookSecretRow)

export const PgWebhookSecretStoreLive = Layer.effect(
  WebhookSecretStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    WebhookSecretStore.of({
      add: (s, maxActive) =>
        Effect.gen(function*() {
          // Each statement of the transaction reads after the lock is held (READ COMMITTED), so the count
          // sees every add that went before.
          yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`webhook-secrets:${s.workspaceId}`}, 0))`
          yield* sql`DELETE FROM webhook_secrets
            WHERE workspace_id = ${s.workspaceId} AND expires_at IS NOT NULL AND expires_at <= ${s.createdAt}`
          const [held] = yield* sql<{ readonly held: number }>`SELECT count(*)::int AS held FROM webhook_secrets
            WHERE workspace_id = ${s.workspaceId}`
          if ((held?.held ?? 0) >= maxActive) return false
          yield* sql`INSERT INTO webhook_secrets (id, workspace_id, secret, created_at, expires_at)
            VALUES (${s.id}, ${s.workspaceId}, ${s.secret}, ${s.createdAt}, ${s.expiresAt})`
          return true
        }).pipe(sql.withTransaction, Effect.orDie, withSpan("PgWebhookSecretStore.add")),
      list: (workspaceId) =>
        sql`SELECT * FROM webhook_secrets WHERE workspace_id = ${workspaceId} ORDER BY created_at, id COLLATE "C"`.pipe(
          Effect.flatMap(secretRows.all),
          Effect.orDie,
          withSpan("PgWebhookSecretStore.list")
        ),
      get: (workspaceId, id) =>
        sql`SELECT * FROM webhook_secrets WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(secretRows.first),
          Effect.orDie,
          withSpan("PgWebhookSecretStore.get")
        ),
      setExpiry: (workspaceId, id, expiresAt, at) =>
        sql`UPDATE webhook_secrets SET expires_at = ${expiresAt}
          WHERE id = ${id} AND workspace_id = ${workspaceId} AND (expires_at IS NULL OR expires_at > ${at})
          RETURNING *`.pipe(
          Effect.flatMap(secretRows.first),
          Effect.orDie,
          withSpan("PgWebhookSecretStore.setExpiry")
        ),
      remove: (workspaceId, id) =>
        sql`DELETE FROM webhook_secrets WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          withSpan("PgWebhookSecretStore.remove")
        ),
      replaceAll: (workspaceId, secrets) =>
        Effect.gen(function*() {
          yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`webhook-secrets:${workspaceId}`}, 0))`
          yield* sql`DELETE FROM webhook_secrets WHERE workspace_id = ${workspaceId}`
          for (const s of secrets) {
            yield* sql`INSERT INTO webhook_secrets (id, workspace_id, secret, created_at, expires_at)
              VALUES (${s.id}, ${s.workspaceId}, ${s.secret}, ${s.createdAt}, ${s.expiresAt})`
          }
        }).pipe(sql.withTransaction, Effect.orDie, withSpan("PgWebhookSecretStore.replaceAll"))
    }))
)
