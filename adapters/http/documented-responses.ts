// The responses the OpenAPI document lists for a route: those the server really answers. The platform
// lists the errors the route's schemas declare, the API-wide ones on every route, and for 400 its own
// decode error's shape, which request-errors.ts never sends. This writes each status the route can
// answer instead, every error with the one `Error` body.
import { STATUS_DESCRIPTIONS } from "./api-error.ts"

export type ErrorStatus = Exclude<keyof typeof STATUS_DESCRIPTIONS, 500>

/** What decides a route's statuses beyond the domain errors its operation declares. */
export interface RouteFacts {
  /** Path, query, body or Idempotency-Key: something that may be invalid (400). */
  readonly takesInput: boolean
  /** A body is read: it may be too large (413), too slow (408) or of another type (415). */
  readonly takesBody: boolean
  /** Under the per-token rate limit (429). */
  readonly rateLimited: boolean
  /** The statuses of the domain errors the operation declares. */
  readonly statuses: ReadonlyArray<ErrorStatus>
}

type OpenApiOperation = Record<string, unknown>

const ERROR_BODY = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } }

const retryAfter = { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } }

const HEADERS: Partial<Record<ErrorStatus, Record<string, object>>> = {
  401: { "WWW-Authenticate": { description: "`Bearer`, naming the realm and, for a token refused, the error.", schema: { type: "string" } } },
  429: { "Retry-After": retryAfter },
  503: { "Retry-After": retryAfter }
}

const errorResponse = (status: ErrorStatus | 500) => ({
  description: STATUS_DESCRIPTIONS[status],
  ...(status !== 500 && HEADERS[status] !== undefined ? { headers: HEADERS[status] } : {}),
  content: ERROR_BODY
})

/** Every route is authenticated, reads headers under a cap (431) and touches the store, which may be unreachable (503). */
export const statusesOf = (facts: RouteFacts): ReadonlyArray<ErrorStatus> => {
  const statuses = new Set<ErrorStatus>([401, 431, 503, ...facts.statuses])
  if (facts.takesInput) statuses.add(400)
  if (facts.takesBody) {
    statuses.add(408)
    statuses.add(413)
    statuses.add(415)
  }
  if (facts.rateLimited) statuses.add(429)
  return [...statuses].sort((a, b) => a - b)
}

/** An OpenAPI transform: the route's success as generated, then its errors, then `default` for a 500. */
export const documentedResponses = (facts: RouteFacts) => (operation: OpenApiOperation): OpenApiOperation => {
  const generated = operation["responses"] as Readonly<Record<string, unknown>>
  const errors = Object.fromEntries(statusesOf(facts).map((status) => [String(status), errorResponse(status)]))
  return { ...operation, responses: { 200: generated[200], ...errors, default: errorResponse(500) } }
}
