// Jobs carry the trace context of the span that queued them (W3C traceparent), so a worker's spans for
// the job join the trace of the request that caused it. Null when tracing was off.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE jobs ADD COLUMN trace_parent text`
})
