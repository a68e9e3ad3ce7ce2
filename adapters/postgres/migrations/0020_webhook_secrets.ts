// A workspace's webhook signing secrets, several at once so that a receiver can rotate without a gap.
// The one secret the operator set (workspaces.webhook_secret) becomes the workspace's first, never
// expiring, so deliveries keep the signature receivers verify today. The secrets are kept readable, as
// webhook_secret was: each delivery is signed with them (an HMAC key cannot be hashed like a token).
//
// workspaces.webhook_secret is no longer read or written; it stays for the processes of the previous
// version still running while a deploy rolls out (they read `SELECT *` of workspaces), and a later
// migration drops it.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE webhook_secrets (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    secret text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz
  )`
  yield* sql`CREATE INDEX webhook_secrets_workspace ON webhook_secrets (workspace_id, created_at)`
  yield* sql`INSERT INTO webhook_secrets (id, workspace_id, secret, created_at, expires_at)
    SELECT gen_random_uuid()::text, id, webhook_secret, now(), NULL FROM workspaces WHERE webhook_secret IS NOT NULL`
})
