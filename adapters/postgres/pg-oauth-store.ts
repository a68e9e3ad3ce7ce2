// OAuthStore on PostgreSQL: tables oauth_clients, oauth_grants, oauth_codes and oauth_tokens.
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import {
  type AuthorizationCode,
  type Grant,
  type OAuthClient,
  OAuthStore,
  type OAuthToken,
  type OAuthTokenKind,
  type SingleUse
} from "../../domain/ports/oauth-store.ts"
import { isoText, isoTextOrNull, jsonText } from "./pg-values.ts"
import { JOINED_WORKSPACE_COLUMNS, type JoinedWorkspaceColumns, joinedWorkspace } from "./pg-workspace-store.ts"

interface ClientRow {
  readonly id: string
  readonly name: string
  readonly redirect_uris: ReadonlyArray<string>
  readonly metadata: Readonly<Record<string, unknown>>
  readonly created_at: Date
}

const toClient = (row: ClientRow): OAuthClient => ({
  id: row.id,
  name: row.name,
  redirectUris: row.redirect_uris,
  metadata: row.metadata,
  createdAt: isoText(row.created_at)
})

interface GrantRow {
  readonly id: string
  readonly client_id: string
  readonly user_id: string
  readonly workspace_id: string
  readonly resource: string
  readonly scope: string | null
  readonly created_at: Date
  readonly revoked_at: Date | null
}

const toGrant = (row: GrantRow): Grant => ({
  id: row.id,
  clientId: row.client_id,
  userId: row.user_id,
  workspaceId: row.workspace_id,
  resource: row.resource,
  scope: row.scope,
  createdAt: isoText(row.created_at),
  revokedAt: isoTextOrNull(row.revoked_at)
})

interface CodeRow {
  readonly hash: string
  readonly grant_id: string
  readonly redirect_uri: string
  readonly code_challenge: string
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
}

const toCode = (row: CodeRow): AuthorizationCode => ({
  hash: row.hash,
  grantId: row.grant_id,
  redirectUri: row.redirect_uri,
  codeChallenge: row.code_challenge,
  createdAt: isoText(row.created_at),
  expiresAt: isoText(row.expires_at),
  usedAt: isoTextOrNull(row.used_at)
})

interface TokenRow {
  readonly hash: string
  readonly grant_id: string
  readonly kind: OAuthTokenKind
  readonly created_at: Date
  readonly expires_at: Date
  readonly used_at: Date | null
}

const toToken = (row: TokenRow): OAuthToken => ({
  hash: row.hash,
  grantId: row.grant_id,
  kind: row.kind,
  createdAt: isoText(row.created_at),
  expiresAt: isoText(row.expires_at),
  usedAt: isoTextOrNull(row.used_at)
})

/** A grant row joined to its client's columns (prefix `client_`) and its workspace's. */
interface GrantViewRow extends GrantRow, JoinedWorkspaceColumns {
  readonly client_name: string
  readonly client_redirect_uris: ReadonlyArray<string>
  readonly client_metadata: Readonly<Record<string, unknown>>
  readonly client_created_at: Date
}

/** A token row joined to its grant's columns (prefix `grant_`; the token's grant_id is the grant's id) and its workspace's. */
interface AccessGrantRow extends TokenRow, JoinedWorkspaceColumns {
  readonly grant_client_id: string
  readonly grant_user_id: string
  readonly grant_resource: string
  readonly grant_scope: string | null
  readonly grant_created_at: Date
  readonly grant_revoked_at: Date | null
}

/**
 * A single use of a code or refresh token: `mark` is the compare-and-set (an UPDATE of the row only while
 * unused, RETURNING it), so of any number of racing callers, in any processes, exactly one gets its row
 * back. When it gets none, `current` tells a used row (Replayed) from a missing one (Unknown).
 */
const singleUse = <Row, A>(
  mark: Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>,
  current: Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>,
  to: (row: Row) => A
): Effect.Effect<SingleUse<A>, SqlError.SqlError> =>
  Effect.flatMap(mark, ([marked]) =>
    marked !== undefined
      ? Effect.succeed({ _tag: "First", value: to(marked) })
      : Effect.map(current, ([row]): SingleUse<A> =>
        row === undefined ? { _tag: "Unknown" } : { _tag: "Replayed", value: to(row) }))

export const PgOAuthStoreLive = Layer.effect(
  OAuthStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    OAuthStore.of({
      insertClient: (c) =>
        sql`INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at)
          VALUES (${c.id}, ${c.name}, ${jsonText(c.redirectUris)}, ${jsonText(c.metadata)}, ${c.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.insertClient")
        ),
      getClient: (id) =>
        sql<ClientRow>`SELECT * FROM oauth_clients WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toClient)),
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.getClient")
        ),
      insertGrant: (g) =>
        sql`INSERT INTO oauth_grants (id, client_id, user_id, workspace_id, resource, scope, created_at, revoked_at)
          VALUES (${g.id}, ${g.clientId}, ${g.userId}, ${g.workspaceId}, ${g.resource}, ${g.scope}, ${g.createdAt},
            ${g.revokedAt})`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgOAuthStore.insertGrant")),
      getGrant: (id) =>
        sql<GrantRow>`SELECT * FROM oauth_grants WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toGrant)),
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.getGrant")
        ),
      // The first revocation time stands.
      revokeGrant: (id, at) =>
        sql`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.revokeGrant")
        ),
      grantsOfUser: (userId) =>
        sql<GrantViewRow>`SELECT g.*, c.name AS client_name, c.redirect_uris AS client_redirect_uris,
            c.metadata AS client_metadata, c.created_at AS client_created_at, ${sql.literal(JOINED_WORKSPACE_COLUMNS)}
          FROM oauth_grants g
            JOIN oauth_clients c ON c.id = g.client_id
            JOIN workspaces w ON w.id = g.workspace_id
          WHERE g.user_id = ${userId} AND g.revoked_at IS NULL
          ORDER BY g.created_at DESC, g.id DESC`.pipe(
          Effect.map((rows) =>
            rows.map((row) => ({
              grant: toGrant(row),
              client: toClient({
                id: row.client_id,
                name: row.client_name,
                redirect_uris: row.client_redirect_uris,
                metadata: row.client_metadata,
                created_at: row.client_created_at
              }),
              workspace: joinedWorkspace(row)
            }))
          ),
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.grantsOfUser")
        ),
      insertCode: (c) =>
        sql`INSERT INTO oauth_codes (hash, grant_id, redirect_uri, code_challenge, created_at, expires_at, used_at)
          VALUES (${c.hash}, ${c.grantId}, ${c.redirectUri}, ${c.codeChallenge}, ${c.createdAt}, ${c.expiresAt},
            ${c.usedAt})`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgOAuthStore.insertCode")),
      consumeCode: (hash, at) =>
        singleUse(
          sql<CodeRow>`UPDATE oauth_codes SET used_at = ${at} WHERE hash = ${hash} AND used_at IS NULL RETURNING *`,
          sql<CodeRow>`SELECT * FROM oauth_codes WHERE hash = ${hash}`,
          toCode
        ).pipe(Effect.orDie, Effect.withSpan("PgOAuthStore.consumeCode")),
      insertToken: (t) =>
        sql`INSERT INTO oauth_tokens (hash, grant_id, kind, created_at, expires_at, used_at)
          VALUES (${t.hash}, ${t.grantId}, ${t.kind}, ${t.createdAt}, ${t.expiresAt}, ${t.usedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.insertToken")
        ),
      // An access token is never used up: to this method it is Unknown.
      useRefreshToken: (hash, at) =>
        singleUse(
          sql<TokenRow>`UPDATE oauth_tokens SET used_at = ${at}
            WHERE hash = ${hash} AND kind = 'refresh' AND used_at IS NULL RETURNING *`,
          sql<TokenRow>`SELECT * FROM oauth_tokens WHERE hash = ${hash} AND kind = 'refresh'`,
          toToken
        ).pipe(Effect.orDie, Effect.withSpan("PgOAuthStore.useRefreshToken")),
      findToken: (hash) =>
        sql<TokenRow>`SELECT * FROM oauth_tokens WHERE hash = ${hash}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toToken)),
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.findToken")
        ),
      findAccessGrant: (hash) =>
        sql<AccessGrantRow>`SELECT t.*, g.client_id AS grant_client_id, g.user_id AS grant_user_id,
            g.resource AS grant_resource, g.scope AS grant_scope, g.created_at AS grant_created_at,
            g.revoked_at AS grant_revoked_at, g.workspace_id, ${sql.literal(JOINED_WORKSPACE_COLUMNS)}
          FROM oauth_tokens t
            JOIN oauth_grants g ON g.id = t.grant_id
            JOIN workspaces w ON w.id = g.workspace_id
          WHERE t.hash = ${hash} AND t.kind = 'access'`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row) => ({
              token: toToken(row),
              grant: toGrant({
                id: row.grant_id,
                client_id: row.grant_client_id,
                user_id: row.grant_user_id,
                workspace_id: row.workspace_id,
                resource: row.grant_resource,
                scope: row.grant_scope,
                created_at: row.grant_created_at,
                revoked_at: row.grant_revoked_at
              }),
              workspace: joinedWorkspace(row)
            }))
          ),
          Effect.orDie,
          Effect.withSpan("PgOAuthStore.findAccessGrant")
        )
    }))
)
