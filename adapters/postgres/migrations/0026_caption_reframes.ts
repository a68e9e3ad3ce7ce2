// Reframing: the shape and mode a caption project's output was asked in (null: the source's frame),
// and the framing planned from its source (the windows' paths; null until planned).
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE video_caption_edits ADD COLUMN reframe jsonb, ADD COLUMN framing jsonb`
})
