// Applies the per-token budgets before a request reaches its route: /v1 and /mcp requests that carry
// a bearer token take one request from that token's bucket (keyed by its SHA-256, so no token is
// kept in memory), whether or not the token turns out to be valid. A request over the budget is a 429
// with Retry-After, in the /v1 error shape or, on /mcp, as a JSON-RPC error. Every limited answer
// carries RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (seconds until the bucket is full).
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { sha256Hex } from "../../src/kernel/secrets.ts"
import { bearerToken, refusal } from "../mcp/mcp-route.ts"
import { tooManyRequests } from "./api-error.ts"
import type { BucketDecision, BucketRule } from "./token-buckets.ts"
import { type RateBudget, TokenRateLimits } from "./token-rate-limits.ts"

export const MCP_PATH = "/mcp"

const budgetOf = (method: string, path: string): RateBudget | null => {
  if (path === MCP_PATH) return "writes"
  if (!path.startsWith("/v1/")) return null
  return method === "GET" || method === "HEAD" ? "reads" : "writes"
}

const perSecond = (n: number): string => `${n} ${n === 1 ? "request" : "requests"} a second`

/** The 429 of a request over its budget, in its route's shape. */
export const overBudget = (path: string, budget: RateBudget, rule: BucketRule, decision: BucketDecision, headers: Record<string, string>) => {
  const message = `Too many requests with this token: its ${budget} budget is ${perSecond(rule.perSecond)} in bursts of ` +
    `${rule.burst}. Retry in ${decision.retryAfterSeconds} s.`
  const allHeaders = { ...headers, "retry-after": String(decision.retryAfterSeconds) }
  if (path === MCP_PATH) return refusal(429, message, allHeaders)
  const error = tooManyRequests(message, decision.retryAfterSeconds)
  return HttpServerResponse.unsafeJson(
    { error: { code: error.code, message: error.message, details: error.details } },
    { status: 429, headers: allHeaders }
  )
}

/** What every limited answer says of its budget. */
export const budgetHeaders = (rule: BucketRule, decision: BucketDecision): Record<string, string> => ({
  "ratelimit-limit": String(rule.burst),
  "ratelimit-remaining": String(decision.remaining),
  "ratelimit-reset": String(decision.resetSeconds)
})

export const limitTokenRate = (app: HttpApp.Default): HttpApp.Default<never, TokenRateLimits> =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const path = request.url.split("?", 1)[0]!
    const budget = budgetOf(request.method, path)
    const token = budget === null ? undefined : bearerToken(request.headers["authorization"])
    if (budget === null || token === undefined) return yield* app
    const buckets = (yield* TokenRateLimits)[budget]
    if (buckets === null) return yield* app
    const decision = yield* buckets.take(sha256Hex(token))
    const headers = budgetHeaders(buckets.rule, decision)
    if (!decision.allowed) return overBudget(path, budget, buckets.rule, decision, headers)
    // The server writes the app's response before a middleware sees it: headers go on as it is written.
    yield* HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
    return yield* app
  })
