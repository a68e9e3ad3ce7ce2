// WorkspaceStore on PostgreSQL: tables workspaces and api_tokens.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { Plan } from "../../domain/plans.ts"
import { type ApiToken, type TokenWithWorkspace, type Workspace, WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { isoText, isoTextOrNull } from "./pg-values.ts"

export interface WorkspaceRow {
  readonly id: string
  readonly name: string
  readonly owner_email: string
  readonly plan: Plan
  readonly byok: boolean
  readonly last_template_id: number | null
  readonly webhook_secret: string | null
  readonly created_at: Date
}

export const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  ownerEmail: row.owner_email,
  plan: row.plan,
  byok: row.byok,
  lastTemplateId: row.last_template_id,
  webhookSecret: row.webhook_secret,
  createdAt: isoText(row.created_at)
})

interface TokenRow {
  readonly id: string
  readonly workspace_id: string
  readonly hash: string
  readonly label: string
  readonly created_at: Date
  readonly revoked_at: Date | null
}

const toToken = (row: TokenRow): ApiToken => ({
  id: row.id,
  workspaceId: row.workspace_id,
  hash: row.hash,
  label: row.label,
  createdAt: isoText(row.created_at),
  revokedAt: isoTextOrNull(row.revoked_at)
})

/** A workspace's columns in a join, each with a `workspace_` prefix; its id is the joined row's `workspace_id`. */
export interface JoinedWorkspaceColumns {
  readonly workspace_id: string
  readonly workspace_name: string
  readonly workspace_owner_email: string
  readonly workspace_plan: Plan
  readonly workspace_byok: boolean
  readonly workspace_last_template_id: number | null
  readonly workspace_webhook_secret: string | null
  readonly workspace_created_at: Date
}

/** The select list that yields `JoinedWorkspaceColumns` from a join whose workspaces table is aliased `w`. */
export const JOINED_WORKSPACE_COLUMNS = `w.name AS workspace_name, w.owner_email AS workspace_owner_email,
  w.plan AS workspace_plan, w.byok AS workspace_byok, w.last_template_id AS workspace_last_template_id,
  w.webhook_secret AS workspace_webhook_secret, w.created_at AS workspace_created_at`

export const joinedWorkspace = (row: JoinedWorkspaceColumns): Workspace =>
  toWorkspace({
    id: row.workspace_id,
    name: row.workspace_name,
    owner_email: row.workspace_owner_email,
    plan: row.workspace_plan,
    byok: row.workspace_byok,
    last_template_id: row.workspace_last_template_id,
    webhook_secret: row.workspace_webhook_secret,
    created_at: row.workspace_created_at
  })

const toTokenWithWorkspace = (row: TokenRow & JoinedWorkspaceColumns): TokenWithWorkspace => ({
  token: toToken(row),
  workspace: joinedWorkspace(row)
})

export const PgWorkspaceStoreLive = Layer.effect(
  WorkspaceStore,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const oneWorkspace = (rows: ReadonlyArray<WorkspaceRow>) => Option.map(Option.fromNullable(rows[0]), toWorkspace)
    const oneToken = (rows: ReadonlyArray<TokenRow>) => Option.map(Option.fromNullable(rows[0]), toToken)
    return WorkspaceStore.of({
      insert: (w) =>
        sql`INSERT INTO workspaces (id, name, owner_email, plan, byok, last_template_id, webhook_secret, created_at)
          VALUES (${w.id}, ${w.name}, ${w.ownerEmail}, ${w.plan}, ${w.byok}, ${w.lastTemplateId}, ${w.webhookSecret},
            ${w.createdAt})`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgWorkspaceStore.insert")),
      get: (id) =>
        sql<WorkspaceRow>`SELECT * FROM workspaces WHERE id = ${id}`.pipe(
          Effect.map(oneWorkspace),
          Effect.orDie,
          Effect.withSpan("PgWorkspaceStore.get")
        ),
      update: (w) =>
        sql`UPDATE workspaces SET name = ${w.name}, owner_email = ${w.ownerEmail}, plan = ${w.plan}, byok = ${w.byok},
            last_template_id = ${w.lastTemplateId}, webhook_secret = ${w.webhookSecret}, created_at = ${w.createdAt}
          WHERE id = ${w.id}`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgWorkspaceStore.update")),
      // "C" collation: ids in code-unit order, as the memory adapter sorts them.
      listCreatedBefore: ({ afterId, createdBefore, limit }) =>
        sql<WorkspaceRow>`SELECT * FROM workspaces
          WHERE created_at < ${createdBefore} AND (${afterId}::text IS NULL OR id COLLATE "C" > ${afterId})
          ORDER BY id COLLATE "C" LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toWorkspace)),
          Effect.orDie,
          Effect.withSpan("PgWorkspaceStore.listCreatedBefore")
        ),
      insertToken: (t) =>
        sql`INSERT INTO api_tokens (id, workspace_id, hash, label, created_at, revoked_at)
          VALUES (${t.id}, ${t.workspaceId}, ${t.hash}, ${t.label}, ${t.createdAt}, ${t.revokedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgWorkspaceStore.insertToken")
        ),
      findTokenByHash: (hash) =>
        sql<TokenRow>`SELECT * FROM api_tokens WHERE hash = ${hash}`.pipe(
          Effect.map(oneToken),
          Effect.orDie,
          Effect.withSpan("PgWorkspaceStore.findTokenByHash")
        ),
      findTokenWithWorkspace: (hash) =>
        sql<TokenRow & JoinedWorkspaceColumns>`SELECT t.*, ${sql.literal(JOINED_WORKSPACE_COLUMNS)}
          FROM api_tokens t JOIN workspaces w ON w.id = t.workspace_id WHERE t.hash = ${hash}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toTokenWithWorkspace)),
          Effect.orDie,
          Effect.withSpan("PgWorkspaceStore.findTokenWithWorkspace")
        ),
      getToken: (id) =>
        sql<TokenRow>`SELECT * FROM api_tokens WHERE id = ${id}`.pipe(
          Effect.map(oneToken),
          Effect.orDie,
          Effect.withSpan("PgWorkspaceStore.getToken")
        ),
      // The first revocation time stands.
      revokeToken: (id, at) =>
        sql`UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgWorkspaceStore.revokeToken")
        )
    })
  })
)
