// The checks on GET /oauth/authorize, before anyone is asked to consent. Until the client and its
// redirect URI are known to match, a failure is only shown to the user: redirecting to an unchecked
// URI would make this server an open redirector. After that, failures go back to the client.
import { Effect, Option, Schema } from "effect"
import {
  canonicalResource,
  mcpResource,
  OAuthErrorCode,
  PKCE_METHOD,
  pkceChallengeProblem
} from "../../../domain/oauth.ts"
import type { ClientMetadataDocuments } from "../../../domain/ports/client-metadata-documents.ts"
import type { OAuthClient, OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { resolveClient } from "./resolve-client.ts"
import { withSpan } from "../../kernel/spans.ts"

/** Where a response goes: the client's checked redirect URI, its `state`, and our issuer for `iss` (RFC 9207). */
export const RedirectTarget = Schema.Struct({
  uri: Schema.String,
  state: Schema.NullOr(Schema.String),
  issuer: Schema.String
})
export type RedirectTarget = typeof RedirectTarget.Type

export interface AuthorizationRequest {
  readonly client: OAuthClient
  readonly redirectUri: string
  readonly state: string | null
  /** The S256 challenge, checked for form. */
  readonly codeChallenge: string
  /** The canonical MCP resource the tokens will be for. */
  readonly resource: string
  readonly scope: string | null
  /** This server's issuer identifier, sent back as `iss`. */
  readonly issuer: string
}

/** `redirect` is null when the client or its redirect URI could not be trusted: show the error, never redirect. */
export class AuthorizationRefused extends Schema.TaggedError<AuthorizationRefused>()("AuthorizationRefused", {
  redirect: Schema.NullOr(RedirectTarget),
  error: OAuthErrorCode,
  description: Schema.String
}) {
  override get message() {
    return `${this.error}: ${this.description}`
  }
}

/** `target`'s URI with `params` added to its query, plus `state` and `iss`. */
export const redirectUrl = (target: RedirectTarget, params: Readonly<Record<string, string>>): string => {
  const url = new URL(target.uri)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  if (target.state !== null) url.searchParams.set("state", target.state)
  url.searchParams.set("iss", target.issuer)
  return url.toString()
}

/** The error redirect of a refusal that has a checked redirect URI (RFC 6749 §4.1.2.1). */
export const authorizationErrorUrl = (refused: AuthorizationRefused): string => {
  if (refused.redirect === null) {
    throw new Error(`A refusal without a checked redirect URI is shown, never redirected: ${refused.message}`)
  }
  return redirectUrl(refused.redirect, { error: refused.error, error_description: refused.description })
}

/** The redirect when the user declines. */
export const denyAuthorization = (request: AuthorizationRequest): string =>
  redirectUrl(
    { uri: request.redirectUri, state: request.state, issuer: request.issuer },
    { error: "access_denied", error_description: "The user declined to connect the app." }
  )

const shownOnly = (error: OAuthErrorCode, description: string) => new AuthorizationRefused({ redirect: null, error, description })

const chosenRedirectUri = (client: OAuthClient, given: string | undefined): string | null => {
  if (given === undefined) {
    // RFC 6749 §3.1.2.3: it may be left out only when there is no choice.
    return client.redirectUris.length === 1 ? client.redirectUris[0]! : null
  }
  return client.redirectUris.includes(given) ? given : null
}

export const checkAuthorizationRequest = (
  params: Readonly<Record<string, string | undefined>>
): Effect.Effect<AuthorizationRequest, AuthorizationRefused, OAuthStore | ClientMetadataDocuments | ServiceConfig> =>
  Effect.gen(function*() {
    // An empty parameter counts as a missing one.
    const param = (name: string): string | undefined => (params[name] === "" ? undefined : params[name])
    const clientId = param("client_id")
    if (clientId === undefined) return yield* shownOnly("invalid_request", "The request names no client_id.")
    const client = yield* resolveClient(clientId).pipe(Effect.mapError((e) => shownOnly("invalid_client", e.description)))
    if (Option.isNone(client)) {
      return yield* shownOnly("invalid_client", "This app is not registered here. Ask it to connect again.")
    }
    const redirectUri = chosenRedirectUri(client.value, param("redirect_uri"))
    if (redirectUri === null) {
      return yield* shownOnly(
        "invalid_request",
        param("redirect_uri") === undefined
          ? "The request names no redirect_uri, and the app registered more than one."
          : "The redirect_uri is not one the app registered."
      )
    }
    const { baseUrl } = yield* ServiceConfig
    const target: RedirectTarget = { uri: redirectUri, state: param("state") ?? null, issuer: baseUrl }
    const refuse = (error: OAuthErrorCode, description: string) => new AuthorizationRefused({ redirect: target, error, description })

    const responseType = param("response_type")
    if (responseType === undefined) return yield* refuse("invalid_request", "response_type is missing; it must be code.")
    if (responseType !== "code") return yield* refuse("unsupported_response_type", "response_type must be code.")
    if (param("code_challenge_method") !== PKCE_METHOD) {
      return yield* refuse("invalid_request", "code_challenge_method must be S256 (plain, or leaving it out, is refused).")
    }
    const codeChallenge = param("code_challenge")
    if (codeChallenge === undefined) return yield* refuse("invalid_request", "code_challenge is missing: PKCE is required.")
    const challengeProblem = pkceChallengeProblem(codeChallenge)
    if (challengeProblem !== null) return yield* refuse("invalid_request", challengeProblem)
    const resource = mcpResource(baseUrl)
    const asked = param("resource")
    if (asked !== undefined && canonicalResource(asked) !== canonicalResource(resource)) {
      return yield* refuse("invalid_target", `Tokens here are only for ${resource}.`)
    }
    return {
      client: client.value,
      redirectUri,
      state: target.state,
      codeChallenge,
      resource,
      scope: param("scope") ?? null,
      issuer: baseUrl
    }
  }).pipe(withSpan("checkAuthorizationRequest"))
