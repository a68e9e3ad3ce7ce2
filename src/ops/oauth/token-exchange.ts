// POST /oauth/token: a code becomes tokens, or a refresh token becomes new ones. Codes and refresh
// tokens are single-use (a compare-and-set in the store); a second use means one leaked, so the whole
// grant is revoked and every token under it stops (RFC 9700 §2.2.2, §4.14.2).
import { Duration, Effect, Option } from "effect"
import {
  ACCESS_TOKEN_TTL,
  CODE_TTL,
  canonicalResource,
  mcpResource,
  OAuthFailure,
  type OAuthErrorCode,
  pkceVerifierProblem,
  REFRESH_TOKEN_TTL
} from "../../../domain/oauth.ts"
import type { ClientMetadataDocuments } from "../../../domain/ports/client-metadata-documents.ts"
import { type Grant, type OAuthClient, OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { nowIso } from "../../kernel/now.ts"
import { newOAuthSecret, pkceS256, sameSecret, sha256Hex } from "../../kernel/secrets.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { hasExpired, lifetimeFromNow } from "./lifetime.ts"
import { resolveClient } from "./resolve-client.ts"
import { withSpan } from "../../kernel/spans.ts"

export interface TokenResponse {
  readonly access_token: string
  readonly token_type: "Bearer"
  /** Seconds. */
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope?: string
}

type Form = Readonly<Record<string, string | undefined>>

const refuse = (error: OAuthErrorCode, description: string) => new OAuthFailure({ error, description })

const AUTHORIZE_AGAIN = "The app must ask the user to authorize again."

/**
 * Runs `self` in one transaction that commits whatever it wrote even when it fails, and fails after
 * the commit: a replay's revocation and a code's consumption must stand although the request fails.
 */
const committedThenFailed = <A, R>(self: Effect.Effect<A, OAuthFailure, R>) =>
  Effect.flatMap(Transactor, (transactor) => transactor.atomically(Effect.either(self))).pipe(Effect.flatMap((result) => result))

/** The canonical resource asked for, checked before a single-use credential is spent; undefined when none was. */
const requestedResource = (asked: string | undefined) =>
  Effect.gen(function*() {
    if (asked === undefined) return undefined
    const resource = mcpResource((yield* ServiceConfig).baseUrl)
    const canonical = canonicalResource(asked)
    if (canonical === null || canonical !== canonicalResource(resource)) {
      return yield* refuse("invalid_target", `Tokens here are only for ${resource}.`)
    }
    return canonical
  })

/** A refresh can never move a grant to another resource. */
const checkResource = (grant: Grant, asked: string | undefined) =>
  asked === undefined || asked === canonicalResource(grant.resource)
    ? Effect.void
    : Effect.fail(refuse("invalid_target", `This grant is for ${grant.resource}.`))

/** The grant a code or refresh token belongs to, when it is this client's and still stands. */
const standingGrant = (grantId: string, client: OAuthClient) =>
  Effect.gen(function*() {
    const grant = yield* (yield* OAuthStore).getGrant(grantId)
    if (Option.isNone(grant) || grant.value.clientId !== client.id) {
      return yield* refuse("invalid_grant", "The grant was issued to another client.")
    }
    if (grant.value.revokedAt !== null) return yield* refuse("invalid_grant", `The connection was revoked. ${AUTHORIZE_AGAIN}`)
    return grant.value
  })

const revokeGrantFor = (grantId: string, what: string) =>
  Effect.gen(function*() {
    yield* (yield* OAuthStore).revokeGrant(grantId, yield* nowIso)
    return yield* refuse(
      "invalid_grant",
      `The ${what} was already used, so it may have leaked: the connection is revoked. ${AUTHORIZE_AGAIN}`
    )
  })

/** A new access token and a new refresh token, each with its own lifetime from now. */
const issueTokens = (grant: Grant) =>
  Effect.gen(function*() {
    const oauth = yield* OAuthStore
    const accessToken = newOAuthSecret("access")
    const refreshToken = newOAuthSecret("refresh")
    const access = yield* lifetimeFromNow(ACCESS_TOKEN_TTL)
    const refresh = yield* lifetimeFromNow(REFRESH_TOKEN_TTL)
    yield* oauth.insertToken({
      hash: sha256Hex(accessToken),
      grantId: grant.id,
      kind: "access",
      createdAt: access.at,
      expiresAt: access.expiresAt,
      usedAt: null
    })
    yield* oauth.insertToken({
      hash: sha256Hex(refreshToken),
      grantId: grant.id,
      kind: "refresh",
      createdAt: refresh.at,
      expiresAt: refresh.expiresAt,
      usedAt: null
    })
    const response: TokenResponse = {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: Duration.toSeconds(ACCESS_TOKEN_TTL),
      refresh_token: refreshToken,
      ...(grant.scope === null ? {} : { scope: grant.scope })
    }
    return response
  })

const exchangeCode = (client: OAuthClient, form: Form, resource: string | undefined) =>
  Effect.gen(function*() {
    const code = form.code
    const verifier = form.code_verifier
    if (code === undefined) return yield* refuse("invalid_request", "code is missing.")
    if (verifier === undefined) return yield* refuse("invalid_request", "code_verifier is missing: PKCE is required.")
    const verifierProblem = pkceVerifierProblem(verifier)
    if (verifierProblem !== null) return yield* refuse("invalid_request", verifierProblem)
    // As at the authorization endpoint, it may be left out only when the client has just one.
    const redirectUri = form.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined)
    if (redirectUri === undefined) return yield* refuse("invalid_request", "redirect_uri is missing.")

    return yield* committedThenFailed(Effect.gen(function*() {
      const used = yield* (yield* OAuthStore).consumeCode(sha256Hex(code), yield* nowIso)
      if (used._tag === "Unknown") return yield* refuse("invalid_grant", "The authorization code is unknown.")
      if (used._tag === "Replayed") return yield* revokeGrantFor(used.value.grantId, "authorization code")
      const stored = used.value
      const grant = yield* standingGrant(stored.grantId, client)
      if (yield* hasExpired(stored.expiresAt)) {
        return yield* refuse(
          "invalid_grant",
          `The authorization code expired: codes live ${Duration.toSeconds(CODE_TTL)} s. ${AUTHORIZE_AGAIN}`
        )
      }
      if (stored.redirectUri !== redirectUri) {
        return yield* refuse("invalid_grant", "redirect_uri differs from the one the code was issued for.")
      }
      if (!sameSecret(pkceS256(verifier), stored.codeChallenge)) {
        return yield* refuse("invalid_grant", "code_verifier does not match the code_challenge.")
      }
      yield* checkResource(grant, resource)
      return yield* issueTokens(grant)
    }))
  })

const refresh = (client: OAuthClient, form: Form, resource: string | undefined) =>
  Effect.gen(function*() {
    const token = form.refresh_token
    if (token === undefined) return yield* refuse("invalid_request", "refresh_token is missing.")
    return yield* committedThenFailed(Effect.gen(function*() {
      const used = yield* (yield* OAuthStore).useRefreshToken(sha256Hex(token), yield* nowIso)
      if (used._tag === "Unknown") return yield* refuse("invalid_grant", "The refresh token is unknown.")
      if (used._tag === "Replayed") return yield* revokeGrantFor(used.value.grantId, "refresh token")
      const grant = yield* standingGrant(used.value.grantId, client)
      if (yield* hasExpired(used.value.expiresAt)) {
        return yield* refuse(
          "invalid_grant",
          `The refresh token expired: each lasts ${Duration.toDays(REFRESH_TOKEN_TTL)} days from its issue. ${AUTHORIZE_AGAIN}`
        )
      }
      yield* checkResource(grant, resource)
      return yield* issueTokens(grant)
    }))
  })

export const exchangeToken = (
  input: Form
): Effect.Effect<TokenResponse, OAuthFailure, OAuthStore | ClientMetadataDocuments | Transactor | ServiceConfig> =>
  Effect.gen(function*() {
    // An empty parameter counts as a missing one.
    const form: Form = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== ""))
    const grantType = form.grant_type
    if (grantType === undefined) return yield* refuse("invalid_request", "grant_type is missing.")
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      return yield* refuse("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.")
    }
    const clientId = form.client_id
    if (clientId === undefined) return yield* refuse("invalid_client", "client_id is missing.")
    const client = yield* resolveClient(clientId).pipe(Effect.mapError((e) => refuse("invalid_client", e.description)))
    if (Option.isNone(client)) return yield* refuse("invalid_client", "This client is not registered here; register again.")
    const resource = yield* requestedResource(form.resource)
    return yield* grantType === "authorization_code"
      ? exchangeCode(client.value, form, resource)
      : refresh(client.value, form, resource)
  }).pipe(withSpan("exchangeToken"))
