// Clips: one row per request to cut a long spoken video into short caption videos. As for caption
// removals, the workspace id is not a foreign key; the options asked and the clips chosen are kept whole.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE clips (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text NOT NULL,
    status text NOT NULL,
    step text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    source_url text,
    source_file_id text,
    webhook_url text,
    options jsonb NOT NULL,
    duration_seconds double precision,
    clips jsonb,
    credits_charged integer NOT NULL,
    refunded boolean NOT NULL,
    refunded_credits integer NOT NULL,
    error text
  )`
  yield* sql`CREATE INDEX clips_by_workspace ON clips (workspace_id, created_at DESC, id DESC)`
})
