// The fixed-window throttle, with TestClock: a key's window opens at its first attempt, refuses past
// the limit with the seconds left, and opens anew once it has passed; keys do not share windows.
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { makeRateLimiter, takeAll } from "../../adapters/oauth/rate-limiter.ts"

describe("makeRateLimiter", () => {
  it.effect("allows `limit` attempts per window and key, then says how long to wait", () =>
    Effect.gen(function*() {
      const limiter = makeRateLimiter("test", { limit: 3, window: Duration.minutes(15) })
      yield* TestClock.adjust(Duration.seconds(100))
      const first = yield* Effect.all([limiter.take("a"), limiter.take("a"), limiter.take("a")])
      expect(first.every((d) => d.allowed)).toBe(true)
      yield* TestClock.adjust(Duration.minutes(5))
      expect(yield* limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 600 })
      expect((yield* limiter.take("b")).allowed).toBe(true)
      yield* TestClock.adjust(Duration.seconds(599))
      expect((yield* limiter.take("a")).allowed).toBe(false)
      yield* TestClock.adjust(Duration.seconds(1))
      expect((yield* limiter.take("a")).allowed).toBe(true)
    }))

  it.effect("takeAll answers the first refusal", () =>
    Effect.gen(function*() {
      const narrow = makeRateLimiter("narrow", { limit: 1, window: Duration.hours(1) })
      const wide = makeRateLimiter("wide", { limit: 10, window: Duration.hours(1) })
      expect((yield* takeAll([[narrow, "x"], [wide, "ip"]])).allowed).toBe(true)
      expect(yield* takeAll([[narrow, "x"], [wide, "ip"]])).toEqual({ allowed: false, retryAfterSeconds: 3600 })
      expect((yield* takeAll([[narrow, "y"], [wide, "ip"]])).allowed).toBe(true)
    }))
})
