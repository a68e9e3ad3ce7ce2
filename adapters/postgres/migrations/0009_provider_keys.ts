// Workspaces' own provider keys (BYOK), one per workspace and provider, sealed by the server's key:
// the table never holds a key in the clear.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE provider_keys (
    workspace_id text NOT NULL REFERENCES workspaces (id),
    provider text NOT NULL CHECK (provider IN ('openai', 'elevenlabs')),
    sealed_key text NOT NULL,
    last_four text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, provider)
  )`
})
