// OAuthStore on PostgreSQL: tables oauth_clients, oauth_grants, oauth_codes and oauth_tokens (and the
// sweep of sessions' expired rows).
import { SqlClient, type SqlConnection, type SqlError } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { OAuthStore, type OAuthTokenKind, type SingleUse } from "../../domain/ports/oauth-store.ts"
import { firstRow, rowDecoder, type RowDecoder } from "./pg-rows.ts"
import { IsoFromDate, jsonText, NumberFromBigint } from "./pg-values.ts"
import { JOINED_WORKSPACE_COLUMNS, joinedWorkspaceRows } from "./pg-workspace-store.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const RedirectUris = Schema.Array(Schema.String)
/** The client's registration as it sent it (RFC 7591): any JSON object. */
const ClientMetadata = Schema.Record({ key: Schema.String, value: Schema.Unknown })

const ClientRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  redirect_uris: RedirectUris,
  metadata: ClientMetadata,
  created_at: IsoFromDate
}).pipe(Schema.rename({ redirect_uris: "redirectUris", created_at: "createdAt" }))

const GrantRow = Schema.Struct({
  id: Schema.String,
  client_id: Schema.String,
  user_id: Schema.String,
  workspace_id: Schema.String,
  resource: Schema.String,
  scope: Schema.NullOr(Schema.String),
  created_at: IsoFromDate,
  revoked_at: Schema.NullOr(IsoFromDate)
}).pipe(Schema.rename({
  client_id: "clientId",
  user_id: "userId",
  workspace_id: "workspaceId",
  created_at: "createdAt",
  revoked_at: "revokedAt"
}))

const CodeRow = Schema.Struct({
  hash: Schema.String,
  grant_id: Schema.String,
  redirect_uri: Schema.String,
  code_challenge: Schema.String,
  created_at: IsoFromDate,
  expires_at: IsoFromDate,
  used_at: Schema.NullOr(IsoFromDate)
}).pipe(Schema.rename({
  grant_id: "grantId",
  redirect_uri: "redirectUri",
  code_challenge: "codeChallenge",
  created_at: "createdAt",
  expires_at: "expiresAt",
  used_at: "usedAt"
}))

const TokenRow = Schema.Struct({
  hash: Schema.String,
  grant_id: Schema.String,
  kind: Schema.Literal("access", "refresh") satisfies Schema.Schema<OAuthTokenKind>,
  created_at: IsoFromDate,
  expires_at: IsoFromDate,
  used_at: Schema.NullOr(IsoFromDate)
}).pipe(Schema.rename({ grant_id: "grantId", created_at: "createdAt", expires_at: "expiresAt", used_at: "usedAt" }))

/** A grant's client in a join: its columns with a `client_` prefix, its id as the grant's `client_id`. */
const JoinedClientRow = Schema.Struct({
  client_id: Schema.String,
  client_name: Schema.String,
  client_redirect_uris: RedirectUris,
  client_metadata: ClientMetadata,
  client_created_at: IsoFromDate
}).pipe(Schema.rename({
  client_id: "id",
  client_name: "name",
  client_redirect_uris: "redirectUris",
  client_metadata: "metadata",
  client_created_at: "createdAt"
}))

/** A token's grant in a join: its columns with a `grant_` prefix but for `workspace_id`; its id is the token's `grant_id`. */
const JoinedGrantRow = Schema.Struct({
  grant_id: Schema.String,
  grant_client_id: Schema.String,
  grant_user_id: Schema.String,
  workspace_id: Schema.String,
  grant_resource: Schema.String,
  grant_scope: Schema.NullOr(Schema.String),
  grant_created_at: IsoFromDate,
  grant_revoked_at: Schema.NullOr(IsoFromDate)
}).pipe(Schema.rename({
  grant_id: "id",
  grant_client_id: "clientId",
  grant_user_id: "userId",
  workspace_id: "workspaceId",
  grant_resource: "resource",
  grant_scope: "scope",
  grant_created_at: "createdAt",
  grant_revoked_at: "revokedAt"
}))

const SweptRow = Schema.Struct({ codes: NumberFromBigint, tokens: NumberFromBigint, sessions: NumberFromBigint })

const clientRows = rowDecoder("oauth_clients", ClientRow)
const grantRows = rowDecoder("oauth_grants", GrantRow)
const codeRows = rowDecoder("oauth_codes", CodeRow, ["hash"])
const tokenRows = rowDecoder("oauth_tokens", TokenRow, ["hash"])
const joinedClientRows = rowDecoder("oauth_clients", JoinedClientRow, ["client_id"])
const joinedGrantRows = rowDecoder("oauth_grants", JoinedGrantRow, ["grant_id"])
const sweptRows = rowDecoder("oauth_tokens", SweptRow, [])
const countRows = rowDecoder("oauth_clients", Schema.Struct({ count: NumberFromBigint }), [])

const grantView = (row: SqlConnection.Row) =>
  Effect.all({ grant: grantRows.one(row), client: joinedClientRows.one(row), workspace: joinedWorkspaceRows.one(row) })

const accessGrant = (row: SqlConnection.Row) =>
  Effect.all({ token: tokenRows.one(row), grant: joinedGrantRows.one(row), workspace: joinedWorkspaceRows.one(row) })

/**
 * A single use of a code or refresh token: `mark` is the compare-and-set (an UPDATE of the row only while
 * unused, RETURNING it), so of any number of racing callers, in any processes, exactly one gets its row
 * back. When it gets none, `current` tells a used row (Replayed) from a missing one (Unknown).
 */
const singleUse = <A>(
  mark: Effect.Effect<ReadonlyArray<SqlConnection.Row>, SqlError.SqlError>,
  current: Effect.Effect<ReadonlyArray<SqlConnection.Row>, SqlError.SqlError>,
  rows: RowDecoder<A>
): Effect.Effect<SingleUse<A>, SqlError.SqlError> =>
  Effect.flatMap(mark, ([marked]) =>
    marked !== undefined
      ? Effect.map(rows.one(marked), (value): SingleUse<A> => ({ _tag: "First", value }))
      : Effect.flatMap(current, ([row]) =>
        row === undefined
          ? Effect.succeed<SingleUse<A>>({ _tag: "Unknown" })
          : Effect.map(rows.one(row), (value): SingleUse<A> => ({ _tag: "Replayed", value }))))

export const PgOAuthStoreLive = Layer.effect(
  OAuthStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    OAuthStore.of({
      insertClient: (c) =>
        sql`INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at)
          VALUES (${c.id}, ${c.name}, ${jsonText(c.redirectUris)}, ${jsonText(c.metadata)}, ${c.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgOAuthStore.insertClient")
        ),
      saveClient: (c) =>
        sql`INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at)
          VALUES (${c.id}, ${c.name}, ${jsonText(c.redirectUris)}, ${jsonText(c.metadata)}, ${c.createdAt})
          ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, redirect_uris = EXCLUDED.redirect_uris,
            metadata = EXCLUDED.metadata`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgOAuthStore.saveClient")),
      getClient: (id) =>
        sql`SELECT * FROM oauth_clients WHERE id = ${id}`.pipe(
          Effect.flatMap(clientRows.first),
          Effect.orDie,
          withSpan("PgOAuthStore.getClient")
        ),
      insertGrant: (g) =>
        sql`INSERT INTO oauth_grants (id, client_id, user_id, workspace_id, resource, scope, created_at, revoked_at)
          VALUES (${g.id}, ${g.clientId}, ${g.userId}, ${g.workspaceId}, ${g.resource}, ${g.scope}, ${g.createdAt},
            ${g.revokedAt})`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgOAuthStore.insertGrant")),
      getGrant: (id) =>
        sql`SELECT * FROM oauth_grants WHERE id = ${id}`.pipe(
          Effect.flatMap(grantRows.first),
          Effect.orDie,
          withSpan("PgOAuthStore.getGrant")
        ),
      // The first revocation time stands.
      revokeGrant: (id, at) =>
        sql`UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, ${at}) WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgOAuthStore.revokeGrant")
        ),
      grantsOfUser: (userId) =>
        sql`SELECT g.*, c.name AS client_name, c.redirect_uris AS client_redirect_uris,
            c.metadata AS client_metadata, c.created_at AS client_created_at, ${sql.literal(JOINED_WORKSPACE_COLUMNS)}
          FROM oauth_grants g
            JOIN oauth_clients c ON c.id = g.client_id
            JOIN workspaces w ON w.id = g.workspace_id
          WHERE g.user_id = ${userId} AND g.revoked_at IS NULL
          ORDER BY g.created_at DESC, g.id DESC`.pipe(
          Effect.flatMap((rows) => Effect.forEach(rows, grantView)),
          Effect.orDie,
          withSpan("PgOAuthStore.grantsOfUser")
        ),
      insertCode: (c) =>
        sql`INSERT INTO oauth_codes (hash, grant_id, redirect_uri, code_challenge, created_at, expires_at, used_at)
          VALUES (${c.hash}, ${c.grantId}, ${c.redirectUri}, ${c.codeChallenge}, ${c.createdAt}, ${c.expiresAt},
            ${c.usedAt})`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgOAuthStore.insertCode")),
      consumeCode: (hash, at) =>
        singleUse(
          sql`UPDATE oauth_codes SET used_at = ${at} WHERE hash = ${hash} AND used_at IS NULL RETURNING *`,
          sql`SELECT * FROM oauth_codes WHERE hash = ${hash}`,
          codeRows
        ).pipe(Effect.orDie, withSpan("PgOAuthStore.consumeCode")),
      insertToken: (t) =>
        sql`INSERT INTO oauth_tokens (hash, grant_id, kind, created_at, expires_at, used_at)
          VALUES (${t.hash}, ${t.grantId}, ${t.kind}, ${t.createdAt}, ${t.expiresAt}, ${t.usedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgOAuthStore.insertToken")
        ),
      // An access token is never used up: to this method it is Unknown.
      useRefreshToken: (hash, at) =>
        singleUse(
          sql`UPDATE oauth_tokens SET used_at = ${at}
            WHERE hash = ${hash} AND kind = 'refresh' AND used_at IS NULL RETURNING *`,
          sql`SELECT * FROM oauth_tokens WHERE hash = ${hash} AND kind = 'refresh'`,
          tokenRows
        ).pipe(Effect.orDie, withSpan("PgOAuthStore.useRefreshToken")),
      findToken: (hash) =>
        sql`SELECT * FROM oauth_tokens WHERE hash = ${hash}`.pipe(
          Effect.flatMap(tokenRows.first),
          Effect.orDie,
          withSpan("PgOAuthStore.findToken")
        ),
      findAccessGrant: (hash) =>
        sql`SELECT t.*, g.client_id AS grant_client_id, g.user_id AS grant_user_id,
            g.resource AS grant_resource, g.scope AS grant_scope, g.created_at AS grant_created_at,
            g.revoked_at AS grant_revoked_at, g.workspace_id, ${sql.literal(JOINED_WORKSPACE_COLUMNS)}
          FROM oauth_tokens t
            JOIN oauth_grants g ON g.id = t.grant_id
            JOIN workspaces w ON w.id = g.workspace_id
          WHERE t.hash = ${hash} AND t.kind = 'access'`.pipe(
          Effect.flatMap((rows) => firstRow(rows, accessGrant)),
          Effect.orDie,
          withSpan("PgOAuthStore.findAccessGrant")
        ),
      // One statement, so one round trip; the expiry indexes of migration 0021 find the rows.
      deleteExpired: (at) =>
        sql`WITH codes AS (DELETE FROM oauth_codes WHERE expires_at <= ${at} RETURNING 1),
            tokens AS (DELETE FROM oauth_tokens WHERE expires_at <= ${at} RETURNING 1),
            sessions AS (DELETE FROM sessions WHERE expires_at <= ${at} RETURNING 1)
          SELECT (SELECT count(*) FROM codes) AS codes, (SELECT count(*) FROM tokens) AS tokens,
            (SELECT count(*) FROM sessions) AS sessions`.pipe(
          Effect.flatMap(([row]) => sweptRows.one(row)),
          Effect.orDie,
          withSpan("PgOAuthStore.deleteExpired")
        ),
      // A grant made meanwhile holds its client (the foreign key): this delete then fails, and the next sweep tries again.
      deleteUnusedClients: (createdBy) =>
        sql`WITH gone AS (
              DELETE FROM oauth_clients c
              WHERE c.created_at <= ${createdBy} AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.id)
              RETURNING 1
            )
          SELECT count(*) AS count FROM gone`.pipe(
          Effect.flatMap(([row]) => countRows.one(row)),
          Effect.map((row) => row.count),
          Effect.orDie,
          withSpan("PgOAuthStore.deleteUnusedClients")
        )
    }))
)
