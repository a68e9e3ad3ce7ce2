// What a request gets when its route failed with something no handler answered: an unknown route a 404,
// a known path with another method a 405 and OPTIONS a 204, both with Allow, a refused body its 4xx, and
// any other defect a 500 whose message quotes the request id its log line has. Each in the shape of the
// route's clients (refusal.ts).
import { HttpApiBuilder, HttpServerError, type HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Cause, Effect, FiberRef, HashSet, Option } from "effect"
import { BodyRefused } from "./request-body.ts"
import { type Refusal, refusalResponse } from "./refusal.ts"
import { currentRequestId } from "./request-log.ts"
import { methodsAt } from "./route-table.ts"

export const pathOf = (url: string): string => url.split("?")[0] ?? url

/** What a path answers: its routes' methods, HEAD with GET (the router serves it), and OPTIONS. */
const allowOf = (methods: ReadonlyArray<string>): string =>
  [...methods, ...(methods.includes("GET") && !methods.includes("HEAD") ? ["HEAD"] : []), "OPTIONS"].join(", ")

/**
 * No route for the method. OPTIONS is answered here for every known path, without CORS: only the OAuth
 * endpoints serve browsers, and they answer their own preflights.
 */
const routeMissing = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(HttpApiBuilder.Router.router, (router) => {
    const path = pathOf(request.url)
    const methods = methodsAt(router, path)
    if (methods.length > 0 && request.method === "OPTIONS") {
      return HttpServerResponse.empty({ status: 204, headers: { allow: allowOf(methods) } })
    }
    return refusalResponse(
      path,
      methods.length === 0
        ? { status: 404, code: "not_found", message: `No route ${request.method} ${path.slice(0, 200)}.` }
        : {
          status: 405,
          code: "method_not_allowed",
          message: `${request.method} is not allowed here; use ${methods.join(" or ")}.`,
          headers: { allow: allowOf(methods) }
        }
    )
  })

const bodyRefusal = (refused: BodyRefused): Refusal => ({
  status: refused.status,
  code: refused.code,
  message: refused.message,
  details: { field: refused.field },
  // The rest of a refused body is not worth reading.
  headers: { connection: "close" }
})

/** The answer to a defect or a missing route; interruptions and the API's own failures pass through. */
export const answerFailure = (request: HttpServerRequest.HttpServerRequest, cause: Cause.Cause<unknown>) => {
  const path = pathOf(request.url)
  // A client that went away (a page left while its video streamed) is the platform's 499, an interruption
  // with its answer attached: nobody reads it, and nothing here failed.
  if (Cause.isInterruptedOnly(cause) || HashSet.has(Cause.interruptors(cause), HttpServerError.clientAbortFiberId)) return Effect.failCause(cause)
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const e = failure.value
    const routeNotFound = typeof e === "object" && e !== null && "_tag" in e && e._tag === "RouteNotFound"
    // Other failures are the API's own errors, for its encoder further out.
    return routeNotFound ? routeMissing(request) : Effect.failCause(cause)
  }
  return answerDefect(path, cause)
}

/** The answer to a defect at `path`: a refused body its 4xx, anything else a 500 quoting the request id. */
export const answerDefect = (path: string, cause: Cause.Cause<unknown>) => {
  const refused = Option.filter(Cause.dieOption(cause), (d): d is BodyRefused => d instanceof BodyRefused)
  if (Option.isSome(refused)) return Effect.succeed(refusalResponse(path, bodyRefusal(refused.value)))
  // The line carries the request's id, as its access line (with the route) and the answer do.
  return Effect.flatMap(FiberRef.get(currentRequestId), (requestId) =>
    Effect.as(
      Effect.logError("request failed", cause),
      refusalResponse(path, {
        status: 500,
        code: "internal",
        message: `Something went wrong on our side; quote request id ${requestId} when you report it.`
      })
    ))
}

