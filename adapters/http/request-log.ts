// Every request gets an id that its log lines carry and its answer states: the X-Request-Id header,
// and `error.requestId` in an `{"error":{…}}` body. The id is the proxy's (Fly-Request-Id, else
// X-Request-Id) only when the operator trusts the proxy to set it (TRUST_PROXY_REQUEST_ID): otherwise a
// client could choose the ids in the logs. Each request is logged once, counted and timed in the
// metrics, and traced as one server span, always by its route (the pattern: paths may hold tokens) and
// never with its query string (it may hold secrets). The platform's own server span records the full
// URL and headers, so server.ts switches it off for this one.
import { type Headers, HttpApiBuilder, HttpApp, HttpBody, type HttpRouter, HttpServerRequest, HttpServerResponse, HttpTraceContext } from "@effect/platform"
import { Clock, Config, Context, Effect, FiberRef, Layer, LogLevel, Metric, MetricKey, MetricLabel, Option, type Tracer } from "effect"
import { randomUUID } from "node:crypto"
import { httpRequestDurationKey, httpRequestsKey } from "../../src/kernel/metrics.ts"
import { withParentSpan } from "../../src/kernel/spans.ts"
import { type RouteEntry, routesOf } from "./route-table.ts"

export class TrustProxyRequestId extends Context.Tag("http/TrustProxyRequestId")<TrustProxyRequestId, boolean>() {
  /** TRUST_PROXY_REQUEST_ID; by default on when FLY_APP_NAME is set: Fly's proxy sets Fly-Request-Id. */
  static readonly fromEnv = Layer.effect(
    TrustProxyRequestId,
    Config.all([Config.option(Config.boolean("TRUST_PROXY_REQUEST_ID")), Config.option(Config.string("FLY_APP_NAME"))]).pipe(
      Config.map(([trust, flyApp]) => Option.getOrElse(trust, () => Option.isSome(flyApp)))
    )
  )
}

/** The id of the request being answered; empty outside one. */
export const currentRequestId = FiberRef.unsafeMake("")

const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** 16 hex digits; randomUUID draws from a cached pool of entropy, where randomBytes asked the system every time. */
export const newRequestId = (): string => randomUUID().replaceAll("-", "").slice(0, 16)

export const requestIdOf = (headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>, trusted: boolean): string => {
  const given = trusted ? headers["fly-request-id"] ?? headers["x-request-id"] : undefined
  return typeof given === "string" && SANE_ID.test(given) ? given : newRequestId()
}

interface ErrorBody {
  readonly error: Record<string, unknown>
}

/** The API's error shape; JSON-RPC errors (/mcp) and OAuth's `{"error":"…"}` are answered as they are. */
const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === "object" && body !== null && !("jsonrpc" in body) && "error" in body &&
  typeof body.error === "object" && body.error !== null && "code" in body.error && typeof body.error.code === "string"

const parsed = (bytes: Uint8Array): unknown => {
  try {
    return JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
}

/**
 * The answer with its request id. Error bodies are made in many places (the API's encoder, the request
 * guards, the editor and media routes): the id goes into them here, as the answer is written.
 */
const stamped = (response: HttpServerResponse.HttpServerResponse, requestId: string) => {
  const withHeader = HttpServerResponse.setHeader(response, "x-request-id", requestId)
  const { body } = response
  if (response.status < 400 || body._tag !== "Uint8Array" || !body.contentType.startsWith("application/json")) return withHeader
  const content = parsed(body.body)
  return isErrorBody(content)
    ? HttpServerResponse.setBody(withHeader, HttpBody.unsafeJson({ ...content, error: { ...content.error, requestId } }))
    : withHeader
}

export const routeOf = (router: HttpRouter.HttpRouter<unknown, unknown>, method: string, url: string): string => {
  const path = url.split("?", 1)[0] ?? url
  const table = routesOf(router)
  const answers = (entry: RouteEntry) => entry.method === method || entry.method === "*" || (method === "HEAD" && entry.method === "GET")
  // A path some route has under another method (a 405) is still named by its pattern.
  const found = table.find((entry) => answers(entry) && entry.pattern.test(path)) ?? table.find((entry) => entry.pattern.test(path))
  return found?.path ?? "(no route)"
}

interface AnswerMetrics {
  readonly count: Metric.Metric.Counter<number>
  readonly duration: Metric.Metric.Histogram<number>
}

/**
 * The series of each method, route and status, made once: a `Metric.tagged` one finds itself in the
 * registry again on every update, which per request was a measurable share of a polled read. Routes and
 * statuses are small closed sets.
 */
const answerMetrics = new Map<string, AnswerMetrics>()

const metricsOf = (method: string, route: string, status: number): AnswerMetrics => {
  const key = `${method} ${status} ${route}`
  const known = answerMetrics.get(key)
  if (known !== undefined) return known
  const byRoute = [MetricLabel.make("method", method), MetricLabel.make("route", route)]
  const made = {
    count: Metric.fromMetricKey(MetricKey.taggedWithLabels(httpRequestsKey, [...byRoute, MetricLabel.make("status", String(status))])),
    duration: Metric.fromMetricKey(MetricKey.taggedWithLabels(httpRequestDurationKey, byRoute))
  }
  answerMetrics.set(key, made)
  return made
}

/**
 * The answer in the metrics and the log. Successful reads are what clients poll: at one line each they
 * would bury the writes and failures worth reading, so they are logged at debug. So is a successful
 * exchange on /mcp, where assistants poll: each tool call logs its own line (tool, outcome, duration),
 * at debug too when it was a read that succeeded.
 */
export const recordAnswer = (method: string, route: string, requestId: string, status: number, started: number, span: Tracer.Span) =>
  Effect.gen(function*() {
    const durationMs = (yield* Clock.currentTimeMillis) - started
    span.attribute("http.response.status_code", status)
    const metrics = metricsOf(method, route, status)
    yield* Metric.increment(metrics.count)
    yield* Metric.update(metrics.duration, durationMs / 1000)
    const quiet = (method === "GET" || method === "HEAD" || route === "/mcp") && status < 400
    const level = quiet ? LogLevel.Debug : LogLevel.Info
    if (LogLevel.lessThan(level, yield* FiberRef.get(FiberRef.currentMinimumLogLevel))) return
    yield* Effect.logWithLevel(level, "request").pipe(
      Effect.annotateLogs({ requestId, method, route, status, durationMs })
    )
  })

/**
 * A request's server span, named by its route, joined to the caller's trace when its headers carry one;
 * what runs inside is its child and carries the request's id in its log lines and in `currentRequestId`.
 */
export const asServerRequest = <A, E, R>(
  request: { readonly method: string; readonly headers: Headers.Headers },
  route: string,
  requestId: string,
  body: (span: Tracer.Span) => Effect.Effect<A, E, R>
) => {
  const parent = HttpTraceContext.fromHeaders(request.headers)
  return Effect.useSpan(`${request.method} ${route}`, {
    kind: "server",
    captureStackTrace: false,
    attributes: { "http.request.method": request.method, "http.route": route, "request.id": requestId },
    ...(Option.isSome(parent) ? { parent: parent.value } : {})
  }, (span) =>
    body(span).pipe(withParentSpan(span), Effect.locally(currentRequestId, requestId), Effect.annotateLogs("requestId", requestId)))
}

/** The outermost middleware: the id for the request's logs and answer, its access log line, metrics and server span. */
export const withRequestLog = <E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | TrustProxyRequestId | HttpApiBuilder.Router> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const requestId = requestIdOf(request.headers, yield* TrustProxyRequestId)
    const started = yield* Clock.currentTimeMillis
    const route = routeOf(yield* HttpApiBuilder.Router.router, request.method, request.url)
    return yield* asServerRequest(request, route, requestId, (span) =>
      Effect.gen(function*() {
        const answer = (response: HttpServerResponse.HttpServerResponse) =>
          Effect.as(recordAnswer(request.method, route, requestId, response.status, started, span), stamped(response, requestId))
        // The server writes the API's answer before a middleware sees it: that one is finished as it is written.
        let written = false
        yield* HttpApp.appendPreResponseHandler((_, response) => {
          written = true
          return answer(response)
        })
        const response = yield* app
        // A guard's own answer (a rate limit, a refused body) never reached the API: it is written after this.
        return written ? response : yield* answer(response)
      }))
  })
