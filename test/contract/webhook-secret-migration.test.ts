// Migration 0020 on a database whose workspaces carry the operator's one secret (workspaces.webhook_secret):
// each becomes that workspace's first secret in webhook_secrets, never expiring, so deliveries keep the
// signature their receivers verify; workspaces without one get none.
import { randomUUID } from "node:crypto"
import { Migrator, SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { MIGRATIONS, PgMigrationsLive } from "../../adapters/postgres/migrations.ts"
import { PgClientLive } from "../../adapters/postgres/pg-layer.ts"
import { PgWebhookSecretStoreLive } from "../../adapters/postgres/pg-webhook-secret-store.ts"
import { WebhookSecretStore } from "../../domain/ports/webhook-secret-store.ts"
import { newWebhookSecret } from "../../src/kernel/secrets.ts"
import { postgresSkipReason, testDatabase } from "../support/pg-test-db.ts"

/** The schema as it stood before 0020. */
const migrateTo0019 = Migrator.make({})({
  loader: Migrator.fromRecord(Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < "0020"))),
  table: "effect_sql_migrations"
})

describe.skipIf(postgresSkipReason !== undefined)("migration 0020_webhook_secrets", () => {
  it.scopedLive("moves each workspace's one secret into webhook_secrets, never expiring", () =>
    Effect.gen(function*() {
      const url = yield* testDatabase({ empty: true })
      const client = yield* Layer.build(PgClientLive(url, 2))
      const sql = Context.get(client, SqlClient.SqlClient)
      yield* migrateTo0019.pipe(Effect.provide(client))
      const [signed, unsigned] = [randomUUID(), randomUUID()]
      const secret = newWebhookSecret()
      for (const [id, webhookSecret] of [[signed, secret], [unsigned, null]] as const) {
        yield* sql`INSERT INTO workspaces (id, name, owner_email, plan, byok, last_template_id, webhook_secret, created_at)
          VALUES (${id}, 'Acme', 'owner@example.com', 'free', false, NULL, ${webhookSecret}, now())`
      }

      yield* Layer.build(PgMigrationsLive.pipe(Layer.provide(PgClientLive(url, 1))))
      const store = Context.get(yield* Layer.build(PgWebhookSecretStoreLive).pipe(Effect.provide(client)), WebhookSecretStore)
      const [moved, ...others] = yield* store.list(signed)
      expect(others).toEqual([])
      expect(moved).toMatchObject({ workspaceId: signed, secret, expiresAt: null })
      expect(yield* store.list(unsigned)).toEqual([])
    }))
})
