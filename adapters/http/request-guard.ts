// The guard every request passes before its route: a declared length over the cap or a body type the
// route does not take is refused before a byte is read; the body readers are swapped for guarded ones
// (request-body.ts); and whatever still goes wrong comes back as a JSON answer (failure-answer.ts).
import { type HttpApiBuilder, type HttpApp, HttpServerRequest } from "@effect/platform"
import { type Cause, Effect } from "effect"
import { answerFailure, pathOf } from "./failure-answer.ts"
import { guardRequest } from "./request-body.ts"
import { RequestLimits } from "./request-limits.ts"
import { type Refusal, refusalResponse } from "./refusal.ts"
import { API_ROUTES } from "./route-table.ts"

/** A refused body also ends the connection: the rest of it is not worth reading. */
const CLOSE = { connection: "close" }

const hasBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? "0") !== 0

const readsBody = (request: HttpServerRequest.HttpServerRequest): boolean =>
  hasBody(request) || (request.method !== "GET" && request.method !== "HEAD")

/** The refusal a request earns before anything of its body is read, if any. */
const refusalBeforeBody = (request: HttpServerRequest.HttpServerRequest, limits: RequestLimits["Type"]): Refusal | undefined => {
  const contentType = (request.headers["content-type"] ?? "").toLowerCase().split(";")[0]!.trim()
  const limit = contentType === "multipart/form-data" ? limits.formBytes : limits.jsonBytes
  const declared = Number(request.headers["content-length"] ?? "0")
  if (!(declared <= limit)) {
    return {
      status: 413,
      code: "payload_too_large",
      message: `The body is over the limit of ${limit} bytes.`,
      details: { field: "body", limitBytes: limit },
      headers: CLOSE
    }
  }
  const accepted = API_ROUTES.bodyTypesOf(request.method, pathOf(request.url))
  if (accepted !== undefined && accepted.length > 0 && hasBody(request) && !accepted.includes(contentType)) {
    return {
      status: 415,
      code: "unsupported_media_type",
      message: `body: send it as ${accepted.join(" or ")}${contentType === "" ? "" : `, not ${contentType}`}.`,
      details: { field: "body", accepted },
      headers: CLOSE
    }
  }
  return undefined
}

export const guardRequests = <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<never, R | RequestLimits | HttpApiBuilder.Router> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const limits = yield* RequestLimits
    const answered = Effect.catchAllCause((cause: Cause.Cause<E>) => answerFailure(request, cause))
    // A read without a body (what clients poll) has nothing to guard: it skips the body checks.
    if (!readsBody(request)) return yield* answered(app)
    const early = refusalBeforeBody(request, limits)
    if (early !== undefined) return refusalResponse(pathOf(request.url), early)
    return yield* answered(Effect.provideService(app, HttpServerRequest.HttpServerRequest, guardRequest(request, limits)))
  }) as HttpApp.Default<never, R | RequestLimits | HttpApiBuilder.Router>

