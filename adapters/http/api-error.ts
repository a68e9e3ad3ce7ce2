// The one error shape of /v1 and /admin: `{"error":{"code","message","details","requestId"}}`, and the
// status of each domain error. Domain errors know no HTTP; this file is where they meet it. The request id
// is added as the answer is written (request-log.ts); a client decoding an answer keeps it.
import { HttpApiSchema } from "@effect/platform"
import { Data, Schema } from "effect"
import type { DomainError } from "../../domain/errors.ts"

export class ApiError extends Data.TaggedError("ApiError")<{
  readonly status: number
  readonly code: string
  readonly message: string
  readonly details?: unknown
  readonly requestId?: string
}> {}

const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    code: Schema.String.annotations({ description: "Stable machine-readable code, e.g. `invalid_input`." }),
    message: Schema.String.annotations({ description: "What is wrong, for a person." }),
    details: Schema.optional(Schema.Unknown.annotations({ jsonSchema: { type: "object" } })).annotations({
      description: "Facts a client can act on, by code: `{ field, issues: [{ path, message }] }` for invalid input, " +
        "`{ required, balance }` for too few credits, `{ retryAfterSeconds }` when told to wait."
    }),
    requestId: Schema.optionalWith(Schema.String, { exact: true }).annotations({
      description: "The request's id, as in the `X-Request-Id` header and the service's logs: quote it when reporting a failure."
    })
  })
}).annotations({ identifier: "Error" })

/** The body every refusal answers with. */
export const errorBody = (e: ApiError) => ({
  error: {
    code: e.code,
    message: e.message,
    ...(e.details === undefined ? {} : { details: e.details }),
    ...(e.requestId === undefined ? {} : { requestId: e.requestId })
  }
})

const withStatus = (status: number, description: string) =>
  Schema.transform(
    ErrorBody,
    Schema.declare((u): u is ApiError => u instanceof ApiError && u.status === status),
    {
      strict: true,
      decode: ({ error }) => new ApiError({ status, ...error }),
      encode: errorBody
    }
  ).annotations(HttpApiSchema.annotations({ status, description }))

/** What each status the API answers means, in the OpenAPI document and on the error schemas. */
export const STATUS_DESCRIPTIONS = {
  400: "The request is malformed or a field is invalid; `details.field` names it.",
  401: "Missing, unknown or revoked token.",
  402: "Not enough credits, or with BYOK not enough cash; `details` has `required` and `balance`.",
  403: "The plan does not allow this.",
  404: "No such record in this workspace.",
  408: "The body arrived too slowly; send it again.",
  409: "The record is not in a state that allows this, or the Idempotency-Key was used with another body.",
  413: "The body is over its size limit (one for JSON, another for an uploaded file).",
  415: "The body's type is not one the route takes (JSON, or a multipart form where it takes an upload).",
  429: "Too many requests with this token; `Retry-After` (and `details.retryAfterSeconds`) says when to retry.",
  431: "The request's headers are over 16 KB together.",
  500: "Something went wrong on the service's side; the message quotes the request id to report.",
  503: "Something the request needs is unreachable (the database, a speech engine), not the request: retry after `Retry-After` or shortly."
} as const

export const ApiErrors = {
  400: withStatus(400, STATUS_DESCRIPTIONS[400]),
  401: withStatus(401, STATUS_DESCRIPTIONS[401]),
  402: withStatus(402, STATUS_DESCRIPTIONS[402]),
  403: withStatus(403, STATUS_DESCRIPTIONS[403]),
  404: withStatus(404, STATUS_DESCRIPTIONS[404]),
  409: withStatus(409, STATUS_DESCRIPTIONS[409]),
  413: withStatus(413, STATUS_DESCRIPTIONS[413]),
  429: withStatus(429, STATUS_DESCRIPTIONS[429]),
  503: withStatus(503, STATUS_DESCRIPTIONS[503])
} as const

export const STATUS_OF: Readonly<Record<DomainError["_tag"], keyof typeof ApiErrors>> = {
  InvalidInput: 400,
  Unauthenticated: 401,
  InsufficientCredits: 402,
  InsufficientCash: 402,
  PlanForbids: 403,
  NotFound: 404,
  Conflict: 409,
  Unavailable: 503
}

const CODE_OF: Readonly<Record<DomainError["_tag"], string>> = {
  InvalidInput: "invalid_input",
  Unauthenticated: "unauthenticated",
  InsufficientCredits: "insufficient_credits",
  InsufficientCash: "insufficient_cash",
  PlanForbids: "plan_forbids",
  NotFound: "not_found",
  Conflict: "conflict",
  Unavailable: "unavailable"
}

/** Refusals quote the value they refuse: a short prefix of it is enough to recognise it. */
const MAX_QUOTED_TEXT = 200

export const shorten = (text: string): string => text.length <= MAX_QUOTED_TEXT ? text : `${text.slice(0, MAX_QUOTED_TEXT)}…`

export const toApiError = (e: DomainError): ApiError => {
  switch (e._tag) {
    case "InvalidInput": {
      const message = shorten(e.message)
      return new ApiError({ status: 400, code: CODE_OF[e._tag], message: `${e.field}: ${message}`, details: { field: e.field, issues: [{ path: e.field, message }] } })
    }
    case "InsufficientCredits":
      return new ApiError({ status: 402, code: CODE_OF[e._tag], message: e.message, details: { required: e.required, balance: e.balance } })
    case "InsufficientCash":
      return new ApiError({
        status: 402,
        code: CODE_OF[e._tag],
        message: e.message,
        details: { required: e.required, balance: e.balance, unit: "microdollars" }
      })
    default:
      return new ApiError({ status: STATUS_OF[e._tag], code: CODE_OF[e._tag], message: e.message })
  }
}

export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ApiError({ status: 429, code: "rate_limited", message, details: { retryAfterSeconds } })
