// A clip video's editor lists the other clips of its talk: the clips record is found by one of its
// clips' video ids, which live inside the clips JSON.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX clips_by_video ON clips USING gin (clips jsonb_path_ops)`
})
