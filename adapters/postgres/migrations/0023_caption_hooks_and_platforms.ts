// A caption project's hook title (null: none), the app whose overlays its captions keep out of, and
// whether its words are chosen for emphasis automatically.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE video_caption_edits ADD COLUMN hook jsonb, ADD COLUMN platform text NOT NULL DEFAULT 'none',
    ADD COLUMN emphasis text NOT NULL DEFAULT 'off'`
})
