// Font families became names only (letters and digits, words joined by one space or hyphen, at most 64
// characters). A family saved before that would fail the API's answers: a template takes the default
// family, a video's adjustment is dropped so its template's family applies.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const unfit = sql`(NOT (style->>'fontFamily' ~ '^[A-Za-z0-9]+([ -][A-Za-z0-9]+)*$') OR length(style->>'fontFamily') > 64)`
  yield* sql`UPDATE caption_templates SET style = jsonb_set(style, '{fontFamily}', '"DejaVu Sans"') WHERE ${unfit}`
  yield* sql`UPDATE video_caption_edits SET style = style - 'fontFamily' WHERE ${unfit}`
})
