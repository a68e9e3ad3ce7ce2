// A fixed-window counter per key (a client address, an address and an email), kept in this process.
// Limits are therefore per process: with N API machines a client gets up to N times the limit, which
// is enough to blunt password guessing and registration floods without a shared store.
import { Clock, Duration, Effect } from "effect"
import { withSpan } from "../../src/kernel/spans.ts"

export interface RateLimit {
  readonly limit: number
  readonly window: Duration.DurationInput
}

export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number }

export interface RateLimiter {
  /** Counts one attempt under `key`; refused once the window's limit is spent. */
  readonly take: (key: string) => Effect.Effect<RateDecision>
}

/** Past this many keys, windows that ended are dropped, so one process's memory stays bounded. */
const SWEEP_AT = 10_000

export const makeRateLimiter = (name: string, rule: RateLimit): RateLimiter => {
  const windowMs = Duration.toMillis(rule.window)
  // Each key's window opens at its first attempt, so a burst is never split across two windows.
  const windows = new Map<string, { readonly start: number; count: number }>()
  const sweep = (now: number) => {
    for (const [key, w] of windows) if (w.start + windowMs <= now) windows.delete(key)
  }
  return {
    take: (key) =>
      Effect.map(Clock.currentTimeMillis, (now): RateDecision => {
        if (windows.size >= SWEEP_AT) sweep(now)
        const current = windows.get(key)
        const w = current !== undefined && current.start + windowMs > now ? current : { start: now, count: 0 }
        windows.set(key, w)
        if (w.count >= rule.limit) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)) }
        w.count += 1
        return { allowed: true }
      }).pipe(withSpan("RateLimiter.take", { attributes: { limiter: name } }))
  }
}

/** Takes one attempt from each limiter in turn; the first refusal answers. */
export const takeAll = (attempts: ReadonlyArray<readonly [RateLimiter, string]>): Effect.Effect<RateDecision> =>
  Effect.reduce(attempts, { allowed: true } as RateDecision, (decision, [limiter, key]) =>
    decision.allowed ? limiter.take(key) : Effect.succeed(decision))
