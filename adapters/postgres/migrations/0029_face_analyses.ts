// What a reframe's face analysis found in the source, kept apart from the record (an hour's samples are
// large, and only a change of face mode reads them) so the other face mode can be planned without looking again.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE video_face_analyses (
    video_id text COLLATE "C" PRIMARY KEY REFERENCES videos (id),
    analysis jsonb NOT NULL
  )`
})
