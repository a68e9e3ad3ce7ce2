// JSON answers of the endpoints OAuth clients call: RFC 6749 §5.2 error objects (never the /v1 shape),
// no caching of anything that carries a credential, and CORS for browser-based MCP clients. No cookie
// is read on these endpoints, so allowing any origin exposes nothing a page could not already send.
import { HttpServerResponse } from "@effect/platform"
import type { OAuthErrorCode, OAuthFailure } from "../../domain/oauth.ts"

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "www-authenticate, retry-after"
}

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" }

export const oauthJson = (body: unknown, status = 200): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(body, { status, headers: { ...CORS, ...NO_STORE } })

/** Public metadata: cacheable for a while. */
export const metadataJson = (body: unknown): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(body, { headers: { ...CORS, "cache-control": "public, max-age=3600" } })

export const oauthError = (error: OAuthErrorCode, description: string, status = 400): HttpServerResponse.HttpServerResponse =>
  oauthJson({ error, error_description: description }, status)

/** invalid_client is a 401 (RFC 6749 §5.2); every other failure a 400. */
export const oauthFailure = (failure: OAuthFailure): HttpServerResponse.HttpServerResponse =>
  oauthError(failure.error, failure.description, failure.error === "invalid_client" ? 401 : 400)

export const oauthTooManyRequests = (retryAfterSeconds: number): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.unsafeJson(
    { error: "temporarily_unavailable", error_description: `Too many requests from this address; retry in ${retryAfterSeconds} s.` },
    { status: 429, headers: { ...CORS, ...NO_STORE, "retry-after": String(retryAfterSeconds) } }
  )

/** The answer to a CORS preflight. */
export const preflight: HttpServerResponse.HttpServerResponse = HttpServerResponse.empty({
  status: 204,
  headers: {
    ...CORS,
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
    "access-control-max-age": "86400"
  }
})
