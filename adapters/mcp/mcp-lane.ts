// The MCP lane (lanes.ts): POST /mcp answered without the API's middleware stack, by the process's one MCP
// server (McpServer), through `answerMcp` as the route answers it. It runs the stack's pieces for /mcp: the
// rate budget (taken before anything else, as rate-limit-guard.ts does), the body read under its cap and
// pace, failures answered as failure-answer.ts answers them, the server span, access line, metrics and
// request id. Once it has read a body it cannot hand the request on, so it takes only what it can answer
// whole: a JSON body of a declared length under the cap, with a bearer token whose budget holds; the stack
// answers the rest (a refused length or type, no token, an exhausted budget, another method).
//
// Why: the stack cost more CPU than the tool call; see docs/architecture.md, "Lanes".
import { Headers, HttpServerResponse } from "@effect/platform"
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js"
import { Cause, Clock, Effect, Runtime } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { OAuthStore } from "../../domain/ports/oauth-store.ts"
import type { CatalogueServices } from "../../src/catalogue.ts"
import { sha256Hex } from "../../src/kernel/secrets.ts"
import { answerDefect } from "../http/failure-answer.ts"
import { type Lane, servedLane } from "../http/lanes.ts"
import { budgetHeaders, MCP_PATH, overBudget } from "../http/rate-limit-guard.ts"
import { readAll } from "../http/request-body.ts"
import { RequestLimits } from "../http/request-limits.ts"
import { asServerRequest, recordAnswer, requestIdOf, TrustProxyRequestId } from "../http/request-log.ts"
import { TokenRateLimits } from "../http/token-rate-limits.ts"
import { answerMcp, bearerToken, McpServer } from "./mcp-route.ts"

/** Writes an answer the stack would have written: its status, headers and bytes, and the request's id. */
const write = (response: ServerResponse, answer: HttpServerResponse.HttpServerResponse, requestId: string) => {
  const body = answer.body._tag === "Uint8Array" ? answer.body : undefined
  response.writeHead(answer.status, {
    ...answer.headers,
    "x-request-id": requestId,
    ...(body === undefined ? {} : { "content-type": body.contentType, "content-length": body.body.byteLength })
  })
  response.end(body?.body)
}

const makeLane = Effect.gen(function*() {
  const run = Runtime.runCallback(yield* Effect.runtime<CatalogueServices | OAuthStore>())
  const transport = yield* McpServer
  const limits = yield* RequestLimits
  const trusted = yield* TrustProxyRequestId
  const { writes } = yield* TokenRateLimits

  /** The answer to a request the lane took, or none when its budget is spent (the stack answers that). */
  const answer = (request: IncomingMessage, token: string, requestId: string) =>
    Effect.gen(function*() {
      const started = yield* Clock.currentTimeMillis
      const key = sha256Hex(token)
      if (writes !== null && !(yield* writes.holds(key))) return undefined
      const headers = Headers.fromInput(request.headers)
      return yield* asServerRequest({ method: "POST", headers }, MCP_PATH, requestId, (span) =>
        Effect.gen(function*() {
          const decision = writes === null ? null : yield* writes.take(key)
          const limited = writes === null || decision === null ? {} : budgetHeaders(writes.rule, decision)
          const response = writes !== null && decision !== null && !decision.allowed
            ? overBudget(MCP_PATH, "writes", writes.rule, decision, limited)
            : HttpServerResponse.setHeaders(
              yield* answerMcp(transport, {
                method: "POST",
                headers,
                // As the stack's guarded reader: a refused body is a defect, answered in /mcp's shape below.
                body: Effect.map(Effect.orDie(readAll(request, limits)), (bytes) => bytes.toString("utf8"))
              }).pipe(Effect.catchAllCause((cause) => Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : answerDefect(MCP_PATH, cause))),
              limited
            )
          yield* recordAnswer("POST", MCP_PATH, requestId, response.status, started, span)
          return response
        }))
    })

  const lane: Lane = (request, response, pass) => {
    if (request.method !== "POST" || (request.url ?? "").split("?", 1)[0] !== MCP_PATH) return false
    // What the stack refuses before reading (a length over the cap, a chunked body, another type) is its own to answer.
    const declared = Number(request.headers["content-length"] ?? Number.NaN)
    if (!(declared <= limits.jsonBytes) || request.headers["transfer-encoding"] !== undefined) return false
    if (!isJsonContentType(request.headers["content-type"])) return false
    const token = bearerToken(request.headers.authorization)
    if (token === undefined) return false
    const requestId = requestIdOf(request.headers, trusted)
    const cancel = run(answer(request, token, requestId), {
      onExit: (exit) => {
        if (exit._tag === "Success") return exit.value === undefined ? pass() : write(response, exit.value, requestId)
        // Interrupted (the client went away) or a defect past the answer's own handling: nothing left to tell.
        if (!response.headersSent) response.destroy()
      }
    })
    // A client that goes away interrupts its call, as the platform interrupts a route's handler.
    response.once("close", () => {
      if (!response.writableFinished) cancel()
    })
    return true
  }
  return lane
})

/** Puts the lane in the listener's slot while the API is served. */
export const McpLaneLive = servedLane("mcp", makeLane)
