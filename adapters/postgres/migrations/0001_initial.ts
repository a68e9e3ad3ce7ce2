// The first schema: every table the store adapters use, with an index for each lookup they make.
// Instants that records carry as ISO strings are timestamptz; job times stay epoch milliseconds (bigint),
// as the JobQueue port counts them. Ids are not foreign keys to workspaces: the ports never require a
// workspace row to exist before its videos, files or ledger entries.
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE workspaces (
    id text PRIMARY KEY,
    name text NOT NULL,
    owner_email text NOT NULL,
    plan text NOT NULL,
    byok boolean NOT NULL,
    last_template_id integer,
    webhook_secret text,
    created_at timestamptz NOT NULL
  )`

  yield* sql`CREATE TABLE api_tokens (
    id text PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces (id),
    hash text NOT NULL UNIQUE,
    label text NOT NULL,
    created_at timestamptz NOT NULL,
    revoked_at timestamptz
  )`

  // "C" collation: the list order breaks ties by id in code-unit order, as the memory adapter does.
  yield* sql`CREATE TABLE videos (
    id text COLLATE "C" PRIMARY KEY,
    workspace_id text NOT NULL,
    kind text NOT NULL,
    status text NOT NULL,
    step text NOT NULL,
    render boolean NOT NULL,
    render_options jsonb,
    template_id integer NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    editor_token text NOT NULL UNIQUE,
    webhook_url text,
    work integer NOT NULL,
    generated boolean NOT NULL,
    source_url text,
    source_file_id text,
    video_file_id text,
    thumbnail_file_id text,
    duration_seconds double precision,
    width integer,
    height integer,
    error text,
    export jsonb
  )`
  yield* sql`CREATE INDEX videos_by_workspace ON videos (workspace_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX videos_by_workspace_status ON videos (workspace_id, status, created_at DESC, id DESC)`

  // Apart from the record: transcripts are large and read only by the caption steps and the editor.
  yield* sql`CREATE TABLE video_words (
    video_id text COLLATE "C" PRIMARY KEY REFERENCES videos (id),
    words jsonb NOT NULL
  )`

  yield* sql`CREATE SEQUENCE caption_template_ids AS integer`
  yield* sql`CREATE TABLE caption_templates (
    id integer PRIMARY KEY,
    workspace_id text NOT NULL,
    name text NOT NULL,
    built_in boolean NOT NULL,
    style jsonb NOT NULL,
    created_at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX caption_templates_by_workspace ON caption_templates (workspace_id, id)`

  // seq keeps posting order; the balance is the sum of a workspace's amounts.
  yield* sql`CREATE TABLE ledger (
    id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    workspace_id text NOT NULL,
    key text NOT NULL UNIQUE,
    amount bigint NOT NULL,
    reason text NOT NULL,
    work_key text,
    video_id text,
    at timestamptz NOT NULL
  )`
  yield* sql`CREATE INDEX ledger_by_workspace ON ledger (workspace_id, seq) INCLUDE (amount)`
  yield* sql`CREATE INDEX ledger_by_work ON ledger (work_key, seq)`

  // seq breaks ties between equal run_at values: the job enqueued first is claimed first.
  yield* sql`CREATE TABLE jobs (
    id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    lane text NOT NULL,
    kind text NOT NULL,
    payload jsonb NOT NULL,
    run_at bigint NOT NULL,
    attempts integer NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'running', 'done', 'dead')),
    locked_until bigint,
    dedupe_key text UNIQUE,
    last_error text
  )`
  yield* sql`CREATE INDEX jobs_due ON jobs (lane, status, run_at, seq)`

  // payload is json, not jsonb: the snapshot keeps its key order, as it was when the event happened.
  yield* sql`CREATE TABLE outbox_events (
    id text PRIMARY KEY,
    seq bigint GENERATED ALWAYS AS IDENTITY,
    workspace_id text NOT NULL,
    name text NOT NULL,
    subject_id text NOT NULL,
    dedupe_key text NOT NULL UNIQUE,
    payload json NOT NULL,
    url text NOT NULL,
    created_at timestamptz NOT NULL,
    state text NOT NULL CHECK (state IN ('pending', 'delivered', 'dropped'))
  )`
  yield* sql`CREATE INDEX outbox_events_by_subject ON outbox_events (subject_id, seq)`

  yield* sql`CREATE TABLE delivery_attempts (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id text NOT NULL REFERENCES outbox_events (id),
    attempt integer NOT NULL,
    started_at timestamptz NOT NULL,
    duration_ms double precision NOT NULL,
    status integer,
    error text,
    target text NOT NULL
  )`
  yield* sql`CREATE INDEX delivery_attempts_by_event ON delivery_attempts (event_id, attempt, seq)`

  // response is json, not jsonb: a replayed response keeps the key order of the first one.
  yield* sql`CREATE TABLE idempotency_keys (
    workspace_id text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    response json NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (workspace_id, key)
  )`

  yield* sql`CREATE TABLE files (
    id text PRIMARY KEY,
    workspace_id text NOT NULL,
    blob_key text NOT NULL,
    token text NOT NULL UNIQUE,
    name text NOT NULL,
    content_type text NOT NULL,
    bytes bigint NOT NULL,
    created_at timestamptz NOT NULL,
    expires_at bigint,
    deleted_at timestamptz
  )`
})
