// An Idempotency-Key is reserved before its request runs (response NULL until it answers), so that of
// concurrent requests with one key only one does the work. Keys answered before this keep an empty holder.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE idempotency_keys RENAME COLUMN created_at TO reserved_at`
  yield* sql`ALTER TABLE idempotency_keys ALTER COLUMN response DROP NOT NULL`
  yield* sql`ALTER TABLE idempotency_keys ADD COLUMN holder text NOT NULL DEFAULT ''`
  yield* sql`ALTER TABLE idempotency_keys ALTER COLUMN holder DROP DEFAULT`
})
