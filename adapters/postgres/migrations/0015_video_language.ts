// The spoken language a caption video was asked to be recognised in (ISO 639-1); NULL leaves it to the
// engine: detected by a multilingual whisper model, English otherwise.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE videos ADD COLUMN language text`
})
