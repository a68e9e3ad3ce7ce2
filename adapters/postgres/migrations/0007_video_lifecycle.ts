// The video lifecycle: media deletion and the files of replaced exports on the video, cancelled jobs,
// and attempt series (each redelivery of a webhook event starts one).
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE videos
    ADD COLUMN media_deleted_at timestamptz,
    ADD COLUMN replaced_file_ids jsonb NOT NULL DEFAULT '[]'`
  yield* sql`ALTER TABLE jobs DROP CONSTRAINT jobs_status_check`
  yield* sql`ALTER TABLE jobs ADD CONSTRAINT jobs_status_check
    CHECK (status IN ('queued', 'running', 'done', 'dead', 'cancelled'))`
  yield* sql`ALTER TABLE delivery_attempts ADD COLUMN series integer NOT NULL DEFAULT 1`
  yield* sql`DROP INDEX delivery_attempts_by_event`
  yield* sql`CREATE INDEX delivery_attempts_by_event ON delivery_attempts (event_id, series, attempt, seq)`
})
