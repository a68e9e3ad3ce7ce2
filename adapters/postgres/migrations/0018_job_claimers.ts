// Jobs name the worker that claimed them last (`host:pid`), so the queue status can say who holds a
// running job. Jobs claimed before this migration have none.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN claimed_by text`
})
