// Users, their workspaces and sign-in sessions, and the OAuth authorization server's clients, grants,
// codes and tokens. Unlike the first schema's workspace ids, these ids are foreign keys: every lookup here
// joins across them, and a grant without its client, user or workspace could not be shown or used.
// Sessions, codes and tokens are keyed by the SHA-256 of the secret; the secret itself is never stored.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  // Emails are compared lower-cased; the check keeps a mixed-case one from slipping past the unique index.
  yield* sql`CREATE TABLE users (
    id text PRIMARY KEY,
    email text NOT NULL UNIQUE CHECK (email = lower(email)),
    password_hash text,
    created_at timestamptz NOT NULL
  )`

  // The primary key serves "a user's workspaces".
  yield* sql`CREATE TABLE memberships (
    user_id text NOT NULL REFERENCES users (id),
    workspace_id text NOT NULL REFERENCES workspaces (id),
    role text NOT NULL CHECK (role IN ('owner', 'member')),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, workspace_id)
  )`

  yield* sql`CREATE TABLE sessions (
    hash text PRIMARY KEY,
    user_id text NOT NULL REFERENCES users (id),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  )`

  yield* sql`CREATE TABLE oauth_clients (
    id text PRIMARY KEY,
    name text NOT NULL,
    redirect_uris jsonb NOT NULL,
    metadata jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`

  // "C" collation: a user's grants list breaks ties by id in code-unit order, as the memory adapter does.
  yield* sql`CREATE TABLE oauth_grants (
    id text COLLATE "C" PRIMARY KEY,
    client_id text NOT NULL REFERENCES oauth_clients (id),
    user_id text NOT NULL REFERENCES users (id),
    workspace_id text NOT NULL REFERENCES workspaces (id),
    resource text NOT NULL,
    scope text,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX oauth_grants_by_user ON oauth_grants (user_id, created_at DESC, id DESC)
    WHERE revoked_at IS NULL`

  yield* sql`CREATE TABLE oauth_codes (
    hash text PRIMARY KEY,
    grant_id text COLLATE "C" NOT NULL REFERENCES oauth_grants (id),
    redirect_uri text NOT NULL,
    code_challenge text NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`

  yield* sql`CREATE TABLE oauth_tokens (
    hash text PRIMARY KEY,
    grant_id text COLLATE "C" NOT NULL REFERENCES oauth_grants (id),
    kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    used_at timestamptz
  )`
  yield* sql`CREATE INDEX oauth_tokens_by_grant ON oauth_tokens (grant_id)`
})
