// Generated videos keep their project (narration, one picture per scene) to be rendered later.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE video_projects (
    video_id text COLLATE "C" PRIMARY KEY REFERENCES videos (id),
    project jsonb NOT NULL
  )`
})
