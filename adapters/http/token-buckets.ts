// Token buckets per key (an API token, an OAuth access token), kept in this process: each bucket
// holds up to `burst` requests and refills at `perSecond`. With N API processes a token gets up to N
// times the budget; sharing the buckets through PostgreSQL would cost a round trip on every request.
import { Clock, Effect } from "effect"
import { withSpan } from "../../src/kernel/spans.ts"

export interface BucketRule {
  /** Requests a second, sustained. */
  readonly perSecond: number
  /** Requests that may arrive at once: the bucket's size. */
  readonly burst: number
}

export interface BucketDecision {
  readonly allowed: boolean
  /** Whole requests left in the bucket after this one. */
  readonly remaining: number
  /** Seconds until the bucket is full again. */
  readonly resetSeconds: number
  /** Seconds until one request fits again (refused requests only; 0 when allowed). */
  readonly retryAfterSeconds: number
}

export interface TokenBuckets {
  readonly rule: BucketRule
  /** Takes one request from the bucket of `key`; refused when it holds less than one. */
  readonly take: (key: string) => Effect.Effect<BucketDecision>
  /** Whether the bucket of `key` holds a request now; takes nothing. */
  readonly holds: (key: string) => Effect.Effect<boolean>
}

interface Bucket {
  tokens: number
  at: number
}

/** Past this many buckets, the full ones are dropped: a full bucket is what a new key gets anyway. */
const SWEEP_AT = 10_000

export const makeTokenBuckets = (name: string, rule: BucketRule): TokenBuckets => {
  const buckets = new Map<string, Bucket>()
  // Sweeping again only once the map has doubled keeps a flood of fresh keys from sweeping every time.
  let sweepAt = SWEEP_AT
  const refilled = (bucket: Bucket, now: number): number =>
    Math.min(rule.burst, bucket.tokens + (Math.max(0, now - bucket.at) / 1000) * rule.perSecond)
  const sweep = (now: number) => {
    for (const [key, bucket] of buckets) if (refilled(bucket, now) >= rule.burst) buckets.delete(key)
    sweepAt = Math.max(SWEEP_AT, buckets.size * 2)
  }
  const secondsUntil = (tokens: number, target: number): number => Math.ceil((target - tokens) / rule.perSecond)
  const tokensOf = (key: string, now: number): number => {
    const current = buckets.get(key)
    return current === undefined ? rule.burst : refilled(current, now)
  }
  return {
    rule,
    holds: (key) => Effect.map(Clock.currentTimeMillis, (now) => tokensOf(key, now) >= 1),
    take: (key) =>
      Effect.map(Clock.currentTimeMillis, (now): BucketDecision => {
        if (buckets.size >= sweepAt) sweep(now)
        const tokens = tokensOf(key, now)
        const allowed = tokens >= 1
        const left = allowed ? tokens - 1 : tokens
        buckets.set(key, { tokens: left, at: now })
        return {
          allowed,
          remaining: Math.floor(left),
          resetSeconds: secondsUntil(left, rule.burst),
          retryAfterSeconds: allowed ? 0 : Math.max(1, secondsUntil(left, 1))
        }
      }).pipe(withSpan("TokenBuckets.take", { attributes: { buckets: name } }))
  }
}
