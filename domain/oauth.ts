// The rules of the OAuth 2.0 authorization server that guards /mcp: lifetimes, which redirect URIs a
// client may register, PKCE, the resource a token is for, and the RFC error codes. Hashing and HTTP
// live in the adapters; these are the decisions.
import { Duration, Schema } from "effect"

/** Access tokens work for 12 hours. */
export const ACCESS_TOKEN_TTL = Duration.hours(12)
/** Each refresh token works for 90 days from its own issue; every use rotates it, issuing a new one. */
export const REFRESH_TOKEN_TTL = Duration.days(90)
/** Authorization codes are single-use and live at most 60 s. */
export const CODE_TTL = Duration.seconds(60)
/** A browser sign-in lasts a week. */
export const SESSION_TTL = Duration.days(7)
/**
 * A registered client that no user has approved (it has no grant, live or revoked) is deleted this long
 * after its registration: registration is open to anyone, and an install that never connects leaves
 * nothing worth keeping. A client a user approved is kept.
 */
export const UNUSED_CLIENT_TTL = Duration.days(30)

/** The methods PKCE may use: only S256 (plain, and a missing method, which RFC 7636 reads as plain, are refused). */
export const PKCE_METHOD = "S256"

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"])

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK_HOSTS.has(hostname.toLowerCase())

/**
 * Why a client may not register this redirect URI, or null when it may: https anywhere, or http on
 * localhost, 127.0.0.1 or [::1] (native apps listening on loopback, RFC 8252). Unlike `webhookUrl`,
 * which must be https even on localhost, because we call it; here the user's browser does.
 */
export const redirectUriProblem = (uri: string): string | null => {
  if (!URL.canParse(uri)) return `${uri} is not an absolute URL`
  const url = new URL(uri)
  if (url.hash !== "" || uri.includes("#")) return `${uri} has a fragment, which redirect URIs may not have`
  if (url.username !== "" || url.password !== "") return `${uri} carries credentials`
  if (url.protocol === "https:") return null
  if (url.protocol === "http:" && isLoopbackHost(url.hostname)) return null
  return url.protocol === "http:"
    ? `${uri} uses http on a host other than localhost, 127.0.0.1 or [::1]: use https`
    : `${uri} uses ${url.protocol} : only https (or http on localhost) is allowed`
}

/** A client_id that is an http(s) URL names a client metadata document; any other was registered here. */
export const isClientIdUrl = (clientId: string): boolean => /^https?:\/\//i.test(clientId)

/** The path as written, before a URL parser resolves its dot segments away. */
const writtenPath = (url: string): string => url.replace(/^[a-z]+:\/\/[^/?#]*/i, "").replace(/[?#].*$/s, "")

const isDotSegment = (segment: string): boolean => /^(?:\.|%2e){1,2}$/i.test(segment)

/**
 * Why a client_id URL cannot name a client metadata document, or null when it can
 * (draft-ietf-oauth-client-id-metadata-document §3): https, a path below the root, no fragment, no
 * credentials, no dot segments, and written as a URL parser writes it back, so one client has one id.
 * http passes only when `loopbackHttp` (the outbound client's test switch, OUTBOUND_ALLOW_LOOPBACK=1) is
 * on and the host is loopback: tests can then serve documents without a certificate, while in service
 * the document that decides where codes go always comes over TLS.
 */
export const clientIdUrlProblem = (clientId: string, options: { readonly loopbackHttp: boolean }): string | null => {
  if (!URL.canParse(clientId)) return "it is not an absolute URL"
  const url = new URL(clientId)
  if (url.protocol === "http:") {
    if (!options.loopbackHttp || !isLoopbackHost(url.hostname)) return "it uses http, and a client ID URL must use https"
  } else if (url.protocol !== "https:") {
    return `it uses ${url.protocol} and a client ID URL must use https`
  }
  if (clientId.includes("#")) return "it has a fragment (#), which a client ID URL may not have"
  if (url.username !== "" || url.password !== "") return "it carries a user name or password"
  const path = writtenPath(clientId)
  if (path === "" || path === "/") return "it has no path: the document must live at a path such as /oauth/client.json"
  if (path.split("/").some(isDotSegment)) return "its path has . or .. segments"
  if (url.href !== clientId) return `it is not written in normal form; the same URL is written ${url.href}`
  return null
}

/** RFC 7636 §4.1: 43 to 128 characters from the unreserved set. */
export const pkceVerifierProblem = (verifier: string): string | null =>
  /^[A-Za-z0-9\-._~]{43,128}$/.test(verifier) ? null : "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~"

/** The S256 challenge is base64url without padding of a 32-byte hash: 43 characters. */
export const pkceChallengeProblem = (challenge: string): string | null =>
  /^[A-Za-z0-9\-_]{43}$/.test(challenge) ? null : "code_challenge must be the 43-character base64url SHA-256 of the verifier"

/**
 * The canonical form of a resource indicator (RFC 8707, MCP): scheme and host lower case, no fragment,
 * no trailing slash. Null when it is not an absolute URL.
 */
export const canonicalResource = (resource: string): string | null => {
  if (!URL.canParse(resource)) return null
  const url = new URL(resource)
  if (url.hash !== "") return null
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, "")}${url.search}`
}

/** The one resource our tokens are for: the MCP endpoint. */
export const mcpResource = (baseUrl: string): string => `${baseUrl.replace(/\/+$/, "")}/mcp`

export const OAuthErrorCode = Schema.Literal(
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "unsupported_response_type",
  "invalid_scope",
  "invalid_target",
  "invalid_redirect_uri",
  "invalid_client_metadata",
  "unsupported_token_type",
  "access_denied",
  "temporarily_unavailable"
)
export type OAuthErrorCode = typeof OAuthErrorCode.Type

/** An OAuth failure in the RFC's terms: `error` is the code, `description` what to change. */
export class OAuthFailure extends Schema.TaggedError<OAuthFailure>()("OAuthFailure", {
  error: OAuthErrorCode,
  description: Schema.String
}) {
  override get message() {
    return `${this.error}: ${this.description}`
  }
}
