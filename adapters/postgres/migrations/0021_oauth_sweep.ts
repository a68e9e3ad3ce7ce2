// The sweep of the authorization server's rows (src/ops/oauth/sweep-oauth.job.ts) finds them by index:
// codes, tokens and sign-in sessions by their expiry, and clients by their creation, each checked for a
// grant through the grants' client index. Without them every sweep would read the whole tables.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX oauth_codes_by_expiry ON oauth_codes (expires_at)`
  yield* sql`CREATE INDEX oauth_tokens_by_expiry ON oauth_tokens (expires_at)`
  yield* sql`CREATE INDEX sessions_by_expiry ON sessions (expires_at)`
  yield* sql`CREATE INDEX oauth_clients_by_creation ON oauth_clients (created_at)`
  yield* sql`CREATE INDEX oauth_grants_by_client ON oauth_grants (client_id)`
})
