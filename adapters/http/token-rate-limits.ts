// The per-token budgets of /v1 and /mcp: reads (GET and HEAD on /v1) and writes (every other /v1
// method, and every /mcp request, since any tool call may create something), each a token bucket
// per bearer token in this process. A budget set to null is unlimited.
import { Context, Layer } from "effect"
import { type BucketRule, makeTokenBuckets, type TokenBuckets } from "./token-buckets.ts"

export type RateBudget = "reads" | "writes"

export type RateLimitSettings = Readonly<Record<RateBudget, BucketRule | null>>

/**
 * Enough for a client polling several videos and an assistant's bursts of tool calls; creates start
 * media work, so their budget is smaller.
 */
export const DEFAULT_RATE_LIMITS = {
  reads: { perSecond: 20, burst: 40 },
  writes: { perSecond: 5, burst: 20 }
} as const satisfies RateLimitSettings

export class TokenRateLimits extends Context.Tag("http/TokenRateLimits")<
  TokenRateLimits,
  Readonly<Record<RateBudget, TokenBuckets | null>>
>() {
  static readonly layer = (settings: RateLimitSettings) =>
    Layer.sync(TokenRateLimits, () => ({
      reads: settings.reads === null ? null : makeTokenBuckets("reads", settings.reads),
      writes: settings.writes === null ? null : makeTokenBuckets("writes", settings.writes)
    }))
}
