// Every change to a token or a workspace row is announced on one channel, whoever makes it (a store, a
// migration, an operator in psql): API processes keep tokens with their workspaces in a short-lived cache
// (pg-token-cache.ts) and clear it when they hear one. The notice is sent at commit, and not at all on a
// rollback. The payload is the workspace's id (sql-pg's listen drops empty payloads).
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE FUNCTION reelwright_workspace_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('reelwright_workspaces', to_jsonb(OLD) ->> TG_ARGV[0]);
      RETURN NULL;
    END
  $$`)
  yield* sql`CREATE TRIGGER api_tokens_changed AFTER UPDATE OR DELETE ON api_tokens
    FOR EACH ROW EXECUTE FUNCTION reelwright_workspace_changed('workspace_id')`
  yield* sql`CREATE TRIGGER workspaces_changed AFTER UPDATE OR DELETE ON workspaces
    FOR EACH ROW EXECUTE FUNCTION reelwright_workspace_changed('id')`
})
