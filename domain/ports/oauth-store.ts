import { Context, type Effect, type Option } from "effect"
import type { Workspace } from "./workspace-store.ts"

/**
 * A client that registered itself (RFC 7591), or one known by its client metadata document (its id is
 * the document's URL; stored once a user approves it, as what that approval saw). Public: no secret.
 */
export interface OAuthClient {
  readonly id: string
  readonly name: string
  readonly redirectUris: ReadonlyArray<string>
  /** The registration metadata as accepted, echoed back to the client. */
  readonly metadata: Readonly<Record<string, unknown>>
  readonly createdAt: string
}

/**
 * A user's approval of one client for one workspace and one resource: a "connected app". Revoking it
 * stops every token issued under it.
 */
export interface Grant {
  readonly id: string
  readonly clientId: string
  readonly userId: string
  readonly workspaceId: string
  /** The canonical resource the tokens are for (RFC 8707). */
  readonly resource: string
  readonly scope: string | null
  readonly createdAt: string
  readonly revokedAt: string | null
}

export interface AuthorizationCode {
  /** SHA-256 of the code, hex. */
  readonly hash: string
  readonly grantId: string
  readonly redirectUri: string
  /** The S256 challenge the token request's verifier must match. */
  readonly codeChallenge: string
  readonly createdAt: string
  readonly expiresAt: string
  readonly usedAt: string | null
}

export type OAuthTokenKind = "access" | "refresh"

export interface OAuthToken {
  /** SHA-256 of the token, hex. */
  readonly hash: string
  readonly grantId: string
  readonly kind: OAuthTokenKind
  readonly createdAt: string
  readonly expiresAt: string
  /** For a refresh token: when it was exchanged (rotated out). Null while unused. */
  readonly usedAt: string | null
}

/** A grant with what a person needs to recognise it, for the connected-apps page. */
export interface GrantView {
  readonly grant: Grant
  readonly client: OAuthClient
  readonly workspace: Workspace
}

/** An access token with its grant and workspace, read together: authenticating /mcp is one round trip. */
export interface AccessGrant {
  readonly token: OAuthToken
  readonly grant: Grant
  readonly workspace: Workspace
}

/**
 * The outcome of a compare-and-set on a single-use credential (code or refresh token): the first use
 * wins; any later use, in this process or another, sees `Replayed`.
 */
export type SingleUse<A> =
  | { readonly _tag: "First"; readonly value: A }
  | { readonly _tag: "Replayed"; readonly value: A }
  | { readonly _tag: "Unknown" }

/** How many rows one sweep deleted, of each kind. */
export interface SweptExpired {
  readonly codes: number
  readonly tokens: number
  readonly sessions: number
}

export interface OAuthStoreShape {
  readonly insertClient: (client: OAuthClient) => Effect.Effect<void>
  /** Inserts the client, or replaces its name, redirect URIs and metadata; its `createdAt` stands. */
  readonly saveClient: (client: OAuthClient) => Effect.Effect<void>
  readonly getClient: (id: string) => Effect.Effect<Option.Option<OAuthClient>>
  readonly insertGrant: (grant: Grant) => Effect.Effect<void>
  readonly getGrant: (id: string) => Effect.Effect<Option.Option<Grant>>
  /** The first revocation time stands. */
  readonly revokeGrant: (id: string, at: string) => Effect.Effect<void>
  /** The user's grants that are not revoked, newest first. */
  readonly grantsOfUser: (userId: string) => Effect.Effect<ReadonlyArray<GrantView>>
  readonly insertCode: (code: AuthorizationCode) => Effect.Effect<void>
  /** Marks the code used at `at` if it was unused (atomic across processes). */
  readonly consumeCode: (hash: string, at: string) => Effect.Effect<SingleUse<AuthorizationCode>>
  readonly insertToken: (token: OAuthToken) => Effect.Effect<void>
  /** Marks the refresh token used at `at` if it was unused (atomic across processes). Access tokens are `Unknown` here. */
  readonly useRefreshToken: (hash: string, at: string) => Effect.Effect<SingleUse<OAuthToken>>
  /** Either kind of token, by hash. */
  readonly findToken: (hash: string) => Effect.Effect<Option.Option<OAuthToken>>
  /** An access token (not a refresh token) with its grant and workspace. */
  readonly findAccessGrant: (hash: string) => Effect.Effect<Option.Option<AccessGrant>>
  /**
   * Deletes the codes, tokens (access and refresh, used or not) and sign-in sessions expired at `at`.
   * Sessions are UserStore's to read and write, but they are the authorization server's sign-ins and
   * expire like its codes, so they are swept here with them.
   */
  readonly deleteExpired: (at: string) => Effect.Effect<SweptExpired>
  /** Deletes the clients created at or before `createdBy` that have no grant at all (none ever approved); answers how many. */
  readonly deleteUnusedClients: (createdBy: string) => Effect.Effect<number>
}
export class OAuthStore extends Context.Tag("OAuthStore")<OAuthStore, OAuthStoreShape>() {}
