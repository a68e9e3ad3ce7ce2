// The expiry sweep removes the bytes of files past their plan's retention and records when: the
// record stays (its link answers 410). The index finds the files still to sweep, soonest expired first.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE files ADD COLUMN purged_at timestamptz`
  yield* sql`CREATE INDEX files_to_purge ON files (expires_at, id)
    WHERE expires_at IS NOT NULL AND deleted_at IS NULL AND purged_at IS NULL`
})
