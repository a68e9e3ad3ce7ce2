// What a person changed in the editor (or through PATCH /v1/videos/:id/captions) besides the words:
// line breaks and style adjustments, with a revision that refuses stale edits.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE video_caption_edits (
    video_id text COLLATE "C" PRIMARY KEY REFERENCES videos (id),
    revision integer NOT NULL,
    line_starts jsonb,
    style jsonb NOT NULL
  )`
})
