// Migration 0006 on a database that already holds credit entries: each gets the balance after it (its
// workspace's running sum in posting order) and the operation its reason names; posting then goes on
// from the backfilled balance.
import { randomUUID } from "node:crypto"
import { Migrator, SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { PgMigrationsLive } from "../../adapters/postgres/migrations.ts"
import initial from "../../adapters/postgres/migrations/0001_initial.ts"
import jobLeasesIndex from "../../adapters/postgres/migrations/0002_job_leases_index.ts"
import videoProjects from "../../adapters/postgres/migrations/0003_video_projects.ts"
import uploads from "../../adapters/postgres/migrations/0004_uploads.ts"
import usersAndOAuth from "../../adapters/postgres/migrations/0005_users_and_oauth.ts"
import { PgClientLive } from "../../adapters/postgres/pg-layer.ts"
import { PgLedgerLive } from "../../adapters/postgres/pg-ledger.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { postgresSkipReason, testDatabase } from "../support/pg-test-db.ts"
import { anEntry } from "./fixtures.ts"

/** The schema as it stood before 0006. */
const migrateTo0005 = Migrator.make({})({
  loader: Migrator.fromRecord({
    "0001_initial": initial,
    "0002_job_leases_index": jobLeasesIndex,
    "0003_video_projects": videoProjects,
    "0004_uploads": uploads,
    "0005_users_and_oauth": usersAndOAuth
  }),
  table: "effect_sql_migrations"
})

describe.skipIf(postgresSkipReason !== undefined)("migration 0006_ledger_logs", () => {
  it.scopedLive("backfills the balance after and the operation of existing credit entries", () =>
    Effect.gen(function*() {
      const url = yield* testDatabase({ empty: true })
      const client = yield* Layer.build(PgClientLive(url, 2))
      const sql = Context.get(client, SqlClient.SqlClient)
      yield* migrateTo0005.pipe(Effect.provide(client))
      const [ann, bob] = [randomUUID(), randomUUID()]
      const old: ReadonlyArray<readonly [string, number, string]> = [
        [ann, 500, "opening balance"],
        [bob, 40, "opening balance"],
        [ann, -30, "captions"],
        [ann, -60, "render"],
        [bob, -3, "speech"],
        [ann, 60, "refund: render"],
        [bob, 100, "top up"]
      ]
      for (const [workspaceId, amount, reason] of old) {
        yield* sql`INSERT INTO ledger (id, workspace_id, key, amount, reason, at)
          VALUES (${randomUUID()}, ${workspaceId}, ${randomUUID()}, ${amount}, ${reason}, now())`
      }

      yield* Layer.build(PgMigrationsLive.pipe(Layer.provide(PgClientLive(url, 1))))
      const rows = yield* sql<{ workspace_id: string; balance_after: string; operation: string }>`
        SELECT workspace_id, balance_after, operation FROM ledger ORDER BY seq`
      expect(rows.map((r) => [r.workspace_id === ann ? "ann" : "bob", Number(r.balance_after), r.operation])).toEqual([
        ["ann", 500, "opening balance"],
        ["bob", 40, "opening balance"],
        ["ann", 470, "captions"],
        ["ann", 410, "render"],
        ["bob", 37, "speech"],
        ["ann", 470, "refund"],
        ["bob", 137, "top-up"]
      ])

      const ledger = Context.get(yield* Layer.build(PgLedgerLive).pipe(Effect.provide(client)), Ledger)
      expect(yield* ledger.balance(ann)).toBe(470)
      expect((yield* ledger.post(anEntry(bob, -37))).balanceAfter).toBe(100)
      const refused = yield* Effect.flip(ledger.post(anEntry(ann, -471)))
      expect(refused.balance).toBe(470)
    }))
})
