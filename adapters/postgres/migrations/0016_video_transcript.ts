// The script a user brought for a caption video (plain text, SRT or VTT), whose words the captions show
// aligned to the audio; NULL captions what the recogniser heard.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE videos ADD COLUMN transcript text`
})
