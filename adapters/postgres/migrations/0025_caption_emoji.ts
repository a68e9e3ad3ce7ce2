// Whether a caption project's lines get their emoji chosen automatically (the emoji themselves ride
// on the words, in video_words).
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE video_caption_edits ADD COLUMN emoji text NOT NULL DEFAULT 'off'`
})
