// WorkspaceStore on PostgreSQL: tables workspaces and api_tokens.
import { SqlClient, type SqlConnection } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { Plan } from "../../domain/plans.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { firstRow, rowDecoder } from "./pg-rows.ts"
import { IsoFromDate } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const WorkspaceRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  owner_email: Schema.String,
  plan: Plan,
  byok: Schema.Boolean,
  last_template_id: Schema.NullOr(Schema.Number),
  created_at: IsoFromDate
}).pipe(Schema.rename({
  owner_email: "ownerEmail",
  last_template_id: "lastTemplateId",
  created_at: "createdAt"
}))

/**
 * Rows of workspaces (`SELECT *`, or `w.*` in a join). The column webhook_secret is left over from before
 * migration 0020 (the secrets are in webhook_secrets): neither read nor written.
 */
export const workspaceRows = rowDecoder("workspaces", WorkspaceRow)

/** The select list of a join's workspace columns (`w`), each with a `workspace_` prefix; `joinedWorkspaceRows` decodes them. */
export const JOINED_WORKSPACE_COLUMNS = `w.name AS workspace_name, w.owner_email AS workspace_owner_email,
  w.plan AS workspace_plan, w.byok AS workspace_byok, w.last_template_id AS workspace_last_template_id,
  w.created_at AS workspace_created_at`

/** A workspace in a join: `JOINED_WORKSPACE_COLUMNS`, and its id as the joined row's `workspace_id`. */
const JoinedWorkspaceRow = Schema.Struct({
  workspace_id: Schema.String,
  workspace_name: Schema.String,
  workspace_owner_email: Schema.String,
  workspace_plan: Plan,
  workspace_byok: Schema.Boolean,
  workspace_last_template_id: Schema.NullOr(Schema.Number),
  workspace_created_at: IsoFromDate
}).pipe(Schema.rename({
  workspace_id: "id",
  workspace_name: "name",
  workspace_owner_email: "ownerEmail",
  workspace_plan: "plan",
  workspace_byok: "byok",
  workspace_last_template_id: "lastTemplateId",
  workspace_created_at: "createdAt"
}))

export const joinedWorkspaceRows = rowDecoder("workspaces", JoinedWorkspaceRow, ["workspace_id"])

const TokenRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  hash: Schema.String,
  label: Schema.String,
  created_at: IsoFromDate,
  revoked_at: Schema.NullOr(IsoFromDate)
}).pipe(Schema.rename({ workspace_id: "workspaceId", created_at: "createdAt", revoked_at: "revokedAt" }))

const tokenRows = rowDecoder("api_tokens", TokenRow)

const vocabularyRows = rowDecoder(
  "workspace_vocabularies",
  Schema.Struct({ workspace_id: Schema.String, terms: Schema.Array(Schema.String) }),
  ["workspace_id"]
)

const tokenWithWorkspace = (row: SqlConnection.Row) =>
  Effect.all({ token: tokenRows.one(row), workspace: joinedWorkspaceRows.one(row) })

export const PgWorkspaceStoreLive = Layer.effect(
  WorkspaceStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    WorkspaceStore.of({
      insert: (w) =>
        sql`INSERT INTO workspaces (id, name, owner_email, plan, byok, last_template_id, created_at)
          VALUES (${w.id}, ${w.name}, ${w.ownerEmail}, ${w.plan}, ${w.byok}, ${w.lastTemplateId}, ${w.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgWorkspaceStore.insert")
        ),
      get: (id) =>
        sql`SELECT * FROM workspaces WHERE id = ${id}`.pipe(
          Effect.flatMap(workspaceRows.first),
          Effect.orDie,
          withSpan("PgWorkspaceStore.get")
        ),
      update: (w) =>
        sql`UPDATE workspaces SET name = ${w.name}, owner_email = ${w.ownerEmail}, plan = ${w.plan}, byok = ${w.byok},
            last_template_id = ${w.lastTemplateId}, created_at = ${w.createdAt}
          WHERE id = ${w.id}`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgWorkspaceStore.update")),
      // "C" collation: ids in code-unit order, as the memory adapter sorts them.
      listCreatedBefore: ({ afterId, createdBefore, limit }) =>
        sql`SELECT * FROM workspaces
          WHERE created_at < ${createdBefore} AND (${afterId}::text IS NULL OR id COLLATE "C" > ${afterId})
          ORDER BY id COLLATE "C" LIMIT ${limit}`.pipe(
          Effect.flatMap(workspaceRows.all),
          Effect.orDie,
          withSpan("PgWorkspaceStore.listCreatedBefore")
        ),
      insertToken: (t) =>
        sql`INSERT INTO api_tokens (id, workspace_id, hash, label, created_at, revoked_at)
          VALUES (${t.id}, ${t.workspaceId}, ${t.hash}, ${t.label}, ${t.createdAt}, ${t.revokedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgWorkspaceStore.insertToken")
        ),
      findTokenByHash: (hash) =>
        sql`SELECT * FROM api_tokens WHERE hash = ${hash}`.pipe(
          Effect.flatMap(tokenRows.first),
          Effect.orDie,
          withSpan("PgWorkspaceStore.findTokenByHash")
        ),
      findTokenWithWorkspace: (hash) =>
        sql`SELECT t.*, ${sql.literal(JOINED_WORKSPACE_COLUMNS)}
          FROM api_tokens t JOIN workspaces w ON w.id = t.workspace_id WHERE t.hash = ${hash}`.pipe(
          Effect.flatMap((rows) => firstRow(rows, tokenWithWorkspace)),
          Effect.orDie,
          withSpan("PgWorkspaceStore.findTokenWithWorkspace", { captureStackTrace: false })
        ),
      getToken: (id) =>
        sql`SELECT * FROM api_tokens WHERE id = ${id}`.pipe(
          Effect.flatMap(tokenRows.first),
          Effect.orDie,
          withSpan("PgWorkspaceStore.getToken")
        ),
      // The first revocation time stands.
      revokeToken: (id, at) =>
        sql`UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgWorkspaceStore.revokeToken")
        ),
      getVocabulary: (workspaceId) =>
        sql`SELECT workspace_id, terms FROM workspace_vocabularies WHERE workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(vocabularyRows.first),
          Effect.map(Option.match({ onNone: () => [], onSome: (row) => row.terms })),
          Effect.orDie,
          withSpan("PgWorkspaceStore.getVocabulary")
        ),
      setVocabulary: (workspaceId, terms) =>
        sql`INSERT INTO workspace_vocabularies (workspace_id, terms) VALUES (${workspaceId}, ${JSON.stringify(terms)}::jsonb)
          ON CONFLICT (workspace_id) DO UPDATE SET terms = EXCLUDED.terms`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgWorkspaceStore.setVocabulary")
        )
    }))
)
