// The read lane: what clients poll (GET /v1/videos/:id, the other reads of one record, and the lists)
// answered without the API's middleware stack. Each read is still its operation, run from its declaration: the
// same bearer check, handler, output Schema, server span, access line, metrics, request id and rate
// budget as the API's own route. The lane answers only a success; anything else (a refused token, a
// missing record, an exhausted budget, a defect) is passed to the API, which answers it as it answers
// every request. A read has no body and changes nothing, so running it again there is safe.
//
// Why: the stack (router, security middleware, path decoding, response encoding, guards) cost more CPU
// than the read itself, about half of a polled GET's; see docs/architecture.md, "The read lane".
import { HttpApiBuilder, Headers, HttpServerRequest } from "@effect/platform"
import { Clock, Effect, Either, Exit, Option, type ParseResult, Runtime, Schema } from "effect"
import type { IncomingMessage } from "node:http"
import { type CatalogueServices, workspaceOperations } from "../../src/catalogue.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import type { AnyOperation } from "../../src/kernel/operation.ts"
import { sha256Hex } from "../../src/kernel/secrets.ts"
import { authenticate } from "../../src/ops/workspaces/parts/authenticate.ts"
import { bearerToken } from "../mcp/mcp-route.ts"
import { httpPayload } from "./api.ts"
import { type Lane, servedLane } from "./lanes.ts"
import { asServerRequest, recordAnswer, requestIdOf, routeOf, TrustProxyRequestId } from "./request-log.ts"
import { budgetHeaders } from "./rate-limit-guard.ts"
import { TokenRateLimits } from "./token-rate-limits.ts"

type LaneOperation = AnyOperation<CatalogueServices | CurrentWorkspace>

/** A read of the workspace: its input is its path and, for a list, its query. */
const isLaneRead = (op: LaneOperation): boolean => op.http.method === "GET" && op.access === "workspace"

/** Path values the lane takes as they are: anything a URL would escape goes to the API, which decodes it. */
const PLAIN_SEGMENT = "([A-Za-z0-9._~-]+)"

interface LaneRoute {
  readonly op: LaneOperation
  readonly pattern: RegExp
  readonly params: ReadonlyArray<string>
  readonly decodePath: Decode
  /** The query's decoder, as the API's endpoint has it (unknown parameters refused); none where the API ignores the query. */
  readonly decodeQuery: Decode | null
  readonly encode: (output: unknown) => Either.Either<unknown, ParseResult.ParseError>
}

type Decode = (input: unknown) => Either.Either<Readonly<Record<string, unknown>>, ParseResult.ParseError>

const laneRouteOf = (op: LaneOperation): LaneRoute => {
  const pieces = op.http.path.split(/:([A-Za-z_][A-Za-z0-9_]*)/)
  return {
    op,
    pattern: new RegExp(`^${pieces.map((piece, i) => i % 2 === 0 ? piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : PLAIN_SEGMENT).join("")}$`),
    params: pieces.filter((_, i) => i % 2 === 1),
    decodePath: Schema.decodeUnknownEither(op.path) as Decode,
    decodeQuery: Object.keys(op.payload.fields).length === 0 ? null : Schema.decodeUnknownEither(httpPayload(op)) as Decode,
    encode: Schema.encodeEither(op.output)
  }
}

const laneOperations: ReadonlyArray<LaneOperation> = workspaceOperations.filter(isLaneRead)

export const LANE_READS: ReadonlyArray<string> = laneOperations.map((op) => op.name)

/** On the lane's span of a request it handed to the stack. */
export const HANDED_ON = "reelwright.read_lane.handed_on"

interface Success {
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

/** The lane over the catalogue's reads, running each in the services of the served API. */
const makeLane = Effect.gen(function*() {
  const run = Runtime.runCallback(yield* Effect.runtime<CatalogueServices | TokenRateLimits | TrustProxyRequestId | HttpApiBuilder.Router>())
  const trusted = yield* TrustProxyRequestId
  const { reads } = yield* TokenRateLimits
  const routes = laneOperations.map(laneRouteOf)

  const answer = (request: IncomingMessage, route: LaneRoute, input: Readonly<Record<string, unknown>>, url: string) =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      // The router may prefer a literal route that this pattern also matches: that request is not this read's.
      if (routeOf(yield* HttpApiBuilder.Router.router, "GET", url) !== route.op.http.path) return Option.none<Success>()
      // The budget is the token's, as rate-limit-guard.ts keys it; a request without a token has none.
      const budgetToken = bearerToken(request.headers.authorization)
      const budget = reads === null || budgetToken === undefined ? null : { buckets: reads, key: sha256Hex(budgetToken) }
      // An exhausted budget is refused by the API before it authenticates: the lane does no work for it.
      if (budget !== null && !(yield* budget.buckets.holds(budget.key))) return Option.none<Success>()
      const requestId = requestIdOf(request.headers, trusted)
      const headers = Headers.fromInput(request.headers)
      return yield* asServerRequest({ method: "GET", headers }, route.op.http.path, requestId, (span) =>
        Effect.gen(function*() {
          // As HttpApiSecurity.bearer reads it: whatever follows the scheme's seven characters.
          const workspace = yield* authenticate((request.headers.authorization ?? "").slice("Bearer ".length))
          // The rest of the request acts for the workspace, and its log lines (the access line too) name it.
          return yield* Effect.gen(function*() {
            const encoded = route.encode(yield* route.op.handle(input))
            if (Either.isLeft(encoded)) return yield* Effect.die(encoded.left)
            const decision = budget === null ? null : yield* budget.buckets.take(budget.key)
            if (decision !== null && !decision.allowed) return Option.none<Success>()
            yield* recordAnswer("GET", route.op.http.path, requestId, 200, started, span)
            return Option.some({
              body: JSON.stringify(encoded.right),
              headers: {
                "x-request-id": requestId,
                ...(decision === null || budget === null ? {} : budgetHeaders(budget.buckets.rule, decision))
              }
            })
          }).pipe(Effect.provideService(CurrentWorkspace, workspace), Effect.annotateLogs("workspaceId", workspace.id))
        }).pipe(
          // A request handed on gets a second server span from the stack, which answers it: this one says so.
          Effect.onExit((exit) => Exit.isSuccess(exit) && Option.isSome(exit.value) ? Effect.void : Effect.sync(() => span.attribute(HANDED_ON, true)))
        ))
    })

  /** The input as the API's endpoint decodes it: the path's values, then the query's; undefined where that fails. */
  const inputOf = (route: LaneRoute, matched: RegExpExecArray, url: string) => {
    const path = route.decodePath(Object.fromEntries(route.params.map((name, i) => [name, matched[i + 1]])))
    if (Either.isLeft(path)) return undefined
    if (route.decodeQuery === null) return path.right
    const query = route.decodeQuery(HttpServerRequest.searchParamsFromURL(new URL(url, "http://lane.invalid")))
    return Either.isLeft(query) ? undefined : { ...path.right, ...query.right }
  }

  const lane: Lane = (request, response, pass) => {
    const url = request.url ?? ""
    if (request.method !== "GET" || request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined) return false
    const path = url.split("?", 1)[0]!
    for (const route of routes) {
      const matched = route.pattern.exec(path)
      if (matched === null) continue
      // What does not decode is the API's to refuse, naming the field.
      const input = inputOf(route, matched, url)
      if (input === undefined) return false
      run(answer(request, route, input, url), {
        onExit: (exit) => {
          if (exit._tag === "Failure" || Option.isNone(exit.value)) return pass()
          const { body, headers } = exit.value.value
          response.writeHead(200, { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) })
          response.end(body)
        }
      })
      return true
    }
    return false
  }
  return lane
})

/** Puts the lane in the listener's slot while the API is served. */
export const ReadLaneLive = servedLane("read", makeLane)
