// Tighter edits: a caption project's trim settings (null: none asked) and the spans cut from its source,
// and on the video the seconds those cuts take out, so that its duration is the output's.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE video_caption_edits ADD COLUMN trim jsonb, ADD COLUMN cuts jsonb NOT NULL DEFAULT '[]'`
  yield* sql`ALTER TABLE videos ADD COLUMN cut_seconds double precision NOT NULL DEFAULT 0`
})
