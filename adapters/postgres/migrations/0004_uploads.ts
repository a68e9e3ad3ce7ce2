// Pictures and clips workspaces upload to use in their videos, listed newest first.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE uploads (
    key text COLLATE "C" PRIMARY KEY,
    workspace_id text NOT NULL,
    kind text NOT NULL,
    name text NOT NULL,
    content_type text NOT NULL,
    bytes bigint NOT NULL,
    width integer NOT NULL,
    height integer NOT NULL,
    duration_seconds double precision,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX uploads_by_workspace ON uploads (workspace_id, created_at DESC, key DESC)`
})
