// A refusal made before (or around) a route, answered in the shape its clients read: RFC 6749 error
// objects on the OAuth endpoints, a JSON-RPC error on /mcp, and the API's `{"error":{…}}` elsewhere.
import { HttpServerResponse } from "@effect/platform"
import type { OAuthErrorCode } from "../../domain/oauth.ts"
import { refusal as mcpRefusal } from "../mcp/mcp-route.ts"
import { oauthJson } from "../oauth/oauth-json.ts"
import { ApiError, errorBody } from "./api-error.ts"
import { newRequestId } from "./request-log.ts"

export interface Refusal {
  readonly status: number
  readonly code: string
  readonly message: string
  readonly details?: unknown
  readonly headers?: Readonly<Record<string, string>>
}

const isOAuthPath = (path: string): boolean => path.startsWith("/oauth/") || path.startsWith("/.well-known/oauth")

const oauthCode = (status: number): OAuthErrorCode =>
  status === 429 || status >= 500 ? "temporarily_unavailable" : "invalid_request"

export const refusalResponse = (path: string, refusal: Refusal): HttpServerResponse.HttpServerResponse => {
  const headers = refusal.headers ?? {}
  if (path === "/mcp") return mcpRefusal(refusal.status, refusal.message, headers)
  if (isOAuthPath(path)) {
    return HttpServerResponse.setHeaders(
      oauthJson({ error: oauthCode(refusal.status), error_description: refusal.message }, refusal.status),
      headers
    )
  }
  const error = new ApiError({
    status: refusal.status,
    code: refusal.code,
    message: refusal.message,
    ...(refusal.details === undefined ? {} : { details: refusal.details })
  })
  return HttpServerResponse.unsafeJson(errorBody(error), { status: refusal.status, headers })
}

/**
 * The same body as raw HTTP/1.1, for answers written straight to a socket before any request exists:
 * with an id of their own, as every answer has one.
 */
export const rawRefusal = (status: number, reason: string, refusal: Refusal): string => {
  const requestId = newRequestId()
  const body = JSON.stringify(errorBody(new ApiError({ status, code: refusal.code, message: refusal.message, requestId })))
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`
}
