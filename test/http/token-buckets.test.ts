// Token buckets with TestClock: a key starts with a full burst, is refused once it is spent (with the
// seconds until one request fits), refills at the sustained rate up to the burst and no further, and
// keys do not share buckets.
import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, TestClock } from "effect"
import { makeTokenBuckets } from "../../adapters/http/token-buckets.ts"

describe("makeTokenBuckets", () => {
  it.effect("allows a burst, then refuses with the wait for the next request", () =>
    Effect.gen(function*() {
      const buckets = makeTokenBuckets("test", { perSecond: 2, burst: 3 })
      const burst = yield* Effect.all([buckets.take("a"), buckets.take("a"), buckets.take("a")])
      expect(burst.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0]])
      // Three requests missing at 2 a second: full again in 2 s.
      expect(burst[2]!.resetSeconds).toBe(2)
      expect(yield* buckets.take("a")).toEqual({ allowed: false, remaining: 0, resetSeconds: 2, retryAfterSeconds: 1 })
      expect((yield* buckets.take("b")).allowed).toBe(true)
    }))

  it.effect("says whether a request would fit, taking nothing", () =>
    Effect.gen(function*() {
      const buckets = makeTokenBuckets("test", { perSecond: 1, burst: 1 })
      expect(yield* buckets.holds("a")).toBe(true)
      expect(yield* buckets.holds("a")).toBe(true)
      expect((yield* buckets.take("a")).allowed).toBe(true)
      expect(yield* buckets.holds("a")).toBe(false)
      yield* TestClock.adjust(Duration.seconds(1))
      expect(yield* buckets.holds("a")).toBe(true)
    }))

  it.effect("refills at the sustained rate", () =>
    Effect.gen(function*() {
      const buckets = makeTokenBuckets("test", { perSecond: 2, burst: 3 })
      yield* Effect.repeatN(buckets.take("a"), 2)
      yield* TestClock.adjust(Duration.millis(499))
      expect((yield* buckets.take("a")).allowed).toBe(false)
      yield* TestClock.adjust(Duration.millis(1))
      expect(yield* buckets.take("a")).toMatchObject({ allowed: true, remaining: 0 })
      expect((yield* buckets.take("a")).allowed).toBe(false)
    }))

  it.effect("never holds more than the burst, however long the key was idle", () =>
    Effect.gen(function*() {
      const buckets = makeTokenBuckets("test", { perSecond: 1, burst: 2 })
      yield* buckets.take("a")
      yield* TestClock.adjust(Duration.hours(1))
      const answers = yield* Effect.all([buckets.take("a"), buckets.take("a"), buckets.take("a")])
      expect(answers.map((d) => d.allowed)).toEqual([true, true, false])
    }))

  it.effect("says a wait of whole seconds for a slow rate", () =>
    Effect.gen(function*() {
      const buckets = makeTokenBuckets("test", { perSecond: 0.1, burst: 1 })
      yield* buckets.take("a")
      yield* TestClock.adjust(Duration.seconds(4))
      expect(yield* buckets.take("a")).toMatchObject({ allowed: false, retryAfterSeconds: 6, resetSeconds: 6 })
    }))

  it.effect("keeps the buckets still refilling when many keys make it sweep", () =>
    Effect.gen(function*() {
      const buckets = makeTokenBuckets("test", { perSecond: 1, burst: 1 })
      yield* buckets.take("draining")
      for (let i = 0; i < 10_000; i++) yield* buckets.take(`idle-${i}`)
      yield* TestClock.adjust(Duration.millis(500))
      // The sweep runs on this take: the idle keys' buckets are still refilling, so all are kept.
      expect((yield* buckets.take("draining")).allowed).toBe(false)
      yield* TestClock.adjust(Duration.seconds(1))
      expect((yield* buckets.take("draining")).allowed).toBe(true)
      expect((yield* buckets.take("draining")).allowed).toBe(false)
    }))
})
