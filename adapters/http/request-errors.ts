// Turns what the HTTP layer rejects before a handler runs into the one error shape: schema failures
// name the field; a refused body and anything else that escaped a route are answered by
// failure-answer.ts. A database that cannot be reached is a 503, so clients retry instead of reporting
// a bug.
import { HttpApiBuilder, type HttpApiError, type HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect } from "effect"
import { ApiError, shorten } from "./api-error.ts"
import { answerFailure } from "./failure-answer.ts"

interface Issue {
  readonly path: string
  readonly message: string
}

/**
 * A union payload (JSON or multipart) reports the issues of both forms. Keep those of the form the
 * client sent: a JSON body never has `file`, and a form never had to have `url`.
 */
const relevant = (issues: ReadonlyArray<Issue>, isForm: boolean): ReadonlyArray<Issue> => {
  const kept = issues.filter((i) =>
    !i.message.startsWith("Expected undefined") &&
    (isForm ? !(i.path === "url" && i.message === "is missing") : i.path !== "file")
  )
  return kept.length > 0 ? kept : issues
}

/** "Expected 30, actual 24" and "Expected 60, actual 24" at one path read as "Expected 30 or 60, actual 24". */
const summary = (issues: ReadonlyArray<Issue>): string => {
  const expected = issues.map((i) => /^Expected (.*), actual (.*)$/s.exec(i.message))
  if (issues.length > 1 && expected.every((m) => m !== null)) {
    return `Expected ${expected.map((m) => m![1]).join(" or ")}, actual ${expected[0]![2]}`
  }
  return issues[0]!.message
}

const MAX_ISSUES = 20

const fromDecodeError = (e: HttpApiError.HttpApiDecodeError, isForm: boolean): ApiError => {
  const all = e.issues.slice(0, MAX_ISSUES).map((i) => ({
    path: shorten(i.path.length === 0 ? "body" : i.path.map(String).join(".")),
    message: shorten(i.message)
  }))
  const issues = relevant(all, isForm)
  const field = issues[0]?.path ?? "body"
  const message = issues.length === 0 ? shorten(e.message) : summary(issues.filter((i) => i.path === field))
  return new ApiError({ status: 400, code: "invalid_input", message: `${field}: ${message}`, details: { field, issues } })
}

const tagOf = (u: unknown): string | undefined =>
  typeof u === "object" && u !== null && "_tag" in u ? String((u as { _tag: unknown })._tag) : undefined

/**
 * SQLSTATE classes where the server cannot serve now: connection exception, failed login, no such
 * database, insufficient resources, operator intervention (shutdown), system error. Any other code
 * is a statement the server rejected: a bug, which stays a 500.
 */
const UNAVAILABLE_SQL_CLASSES = new Set(["08", "28", "3D", "53", "57", "58"])

/**
 * Store adapters turn SQL errors into defects (`SqlError` from @effect/sql). Without a SQLSTATE
 * the driver never reached the server (refused, reset, timed out, pool closed).
 */
const isDatabaseUnreachable = (cause: Cause.Cause<unknown>): boolean => {
  const error = Cause.squash(cause)
  if (tagOf(error) !== "SqlError") return false
  const driverError = typeof error === "object" && error !== null && "cause" in error ? error.cause : undefined
  const code = typeof driverError === "object" && driverError !== null && "code" in driverError ? driverError.code : undefined
  return typeof code !== "string" || !/^[0-9A-Z]{5}$/.test(code) || UNAVAILABLE_SQL_CLASSES.has(code.slice(0, 2))
}

const RETRY_AFTER_SECONDS = 5

/** Answered directly: the API declares no 503, and the store may be down for any endpoint. */
const databaseUnreachable = HttpServerResponse.unsafeJson(
  {
    error: {
      code: "unavailable",
      message: "The database is unreachable; retry shortly.",
      details: { retryAfterSeconds: RETRY_AFTER_SECONDS }
    }
  },
  { status: 503, headers: { "retry-after": String(RETRY_AFTER_SECONDS) } }
)

/**
 * Wraps the router inside the API's error encoder, so the ApiError it fails with is encoded like
 * a handler's. The platform types API middleware as infallible, hence the cast.
 */
export const mapRequestErrors = (app: HttpApp.Default): HttpApp.Default<never, HttpApiBuilder.Router> =>
  (app as HttpApp.Default<unknown>).pipe(
    Effect.catchIf(
      (e): e is HttpApiError.HttpApiDecodeError => tagOf(e) === "HttpApiDecodeError",
      (e) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          Effect.fail(fromDecodeError(e, (request.headers["content-type"] ?? "").includes("multipart/form-data"))))
    ),
    Effect.catchAllCause((cause) =>
      isDatabaseUnreachable(cause)
        ? Effect.as(Effect.logWarning("database unreachable", cause), databaseUnreachable)
        : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => answerFailure(request, cause))
    )
  ) as HttpApp.Default<never, HttpApiBuilder.Router>

/** With the router, which says what methods a path takes (405, OPTIONS): its routes are read per request. */
export const RequestErrorsLive = HttpApiBuilder.middleware(
  Effect.map(HttpApiBuilder.Router, (router) => (app: HttpApp.Default) =>
    Effect.provideService(mapRequestErrors(app), HttpApiBuilder.Router, router))
)
