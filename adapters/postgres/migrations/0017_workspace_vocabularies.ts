// A workspace's vocabulary (names and terms its videos say), apart from the workspace row that every
// authenticated request reads.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE workspace_vocabularies (
    workspace_id text PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
    terms jsonb NOT NULL
  )`
})
