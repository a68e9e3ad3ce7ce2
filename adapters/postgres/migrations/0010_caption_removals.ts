// Caption removals: one row per request to wipe burned-in text from a video. Like videos, the
// workspace id is not a foreign key, and the regions found are kept whole as JSON.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE caption_removals (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text NOT NULL,
    status text NOT NULL,
    step text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    source_url text,
    source_file_id text,
    result_file_id text,
    webhook_url text,
    target text NOT NULL,
    region jsonb,
    duration_seconds double precision,
    width integer,
    height integer,
    regions jsonb,
    text_remaining_share double precision,
    credits_charged integer NOT NULL,
    refunded boolean NOT NULL,
    refunded_credits integer NOT NULL,
    error text
  )`
  yield* sql`CREATE INDEX caption_removals_by_workspace ON caption_removals (workspace_id, created_at DESC, id DESC)`
})
