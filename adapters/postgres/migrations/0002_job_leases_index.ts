// Lets the claim find expired leases through an index, as it finds due queued jobs through jobs_due.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX jobs_leased ON jobs (lane, locked_until) WHERE status = 'running'`
})
