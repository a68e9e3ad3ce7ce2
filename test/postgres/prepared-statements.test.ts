// The pool's connections prepare each parameterised statement once (pg-pool.ts): the database sees
// named statements, and a migration that changes a prepared `SELECT *`'s columns costs at most the one
// run that meets it; the next runs prepare again and see the new columns.
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { PgClientLive } from "../../adapters/postgres/pg-layer.ts"
import { postgresSkipReason, testDatabase } from "../support/pg-test-db.ts"

/** Runs `body` on one connection (a pool of one) to a new empty database. */
const onOneConnection = <A, E>(body: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.flatMap(testDatabase({ empty: true }), (url) => Effect.provide(body, PgClientLive(url, 1)))

describe.skipIf(postgresSkipReason !== undefined)("prepared statements", () => {
  it.scopedLive("are named on the connection, once per text", () =>
    onOneConnection(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (const n of [1, 2, 3]) yield* sql`SELECT ${n}::int + 1 AS answer`
      const prepared = yield* sql<{ name: string; statement: string }>`SELECT name, statement FROM pg_prepared_statements`
      const ours = prepared.filter((row) => row.statement.includes("AS answer"))
      expect(ours).toHaveLength(1)
      expect(ours[0]!.name).toMatch(/^rw_\d+$/)
    })))

  it.scopedLive("recover from a change of a prepared SELECT *'s columns after at most one failed run", () =>
    onOneConnection(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE notes (id int PRIMARY KEY, body text)`
      yield* sql`INSERT INTO notes VALUES (${1}, ${"first"})`
      const read = sql<Record<string, unknown>>`SELECT * FROM notes WHERE id = ${1}`
      expect(yield* read).toEqual([{ id: 1, body: "first" }])
      yield* sql`ALTER TABLE notes ADD COLUMN tag text DEFAULT 'new'`
      const first = yield* Effect.exit(read)
      const rows = Exit.isSuccess(first) ? first.value : yield* read
      expect(rows).toEqual([{ id: 1, body: "first", tag: "new" }])
      expect(yield* read).toEqual([{ id: 1, body: "first", tag: "new" }])
    })))
})
