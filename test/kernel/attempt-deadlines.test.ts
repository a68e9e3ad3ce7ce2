// Attempt deadlines on Effect's clock: due exactly when their time is up, in the order started, never
// for an attempt that ended first, and kept again after the keeper was idle.
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { attemptDeadlines } from "../../src/kernel/attempt-deadlines.ts"

describe("attemptDeadlines", () => {
  it.scoped("aborts each signal when its time is up on the clock, not before, and none that ended", () =>
    Effect.gen(function*() {
      const deadlines = yield* attemptDeadlines(10_000)
      const first = yield* deadlines.start
      yield* TestClock.adjust("4 seconds")
      const second = yield* deadlines.start
      const ended = yield* deadlines.start
      ended.end()
      yield* TestClock.adjust(`${6_000 - 1} millis`)
      expect([first.signal.aborted, second.signal.aborted]).toEqual([false, false])
      yield* TestClock.adjust("1 millis")
      expect([first.signal.aborted, second.signal.aborted]).toEqual([true, false])
      yield* TestClock.adjust(`${4_000 - 1} millis`)
      expect(second.signal.aborted).toBe(false)
      yield* TestClock.adjust("1 millis")
      expect([second.signal.aborted, ended.signal.aborted]).toEqual([true, false])
      yield* TestClock.adjust("1 hour")
      expect(ended.signal.aborted).toBe(false)
    }))

  it.scoped("keeps deadlines started after all the earlier ones were over", () =>
    Effect.gen(function*() {
      const deadlines = yield* attemptDeadlines(500)
      const early = yield* deadlines.start
      early.end()
      yield* TestClock.adjust("1 minute")
      const late = yield* deadlines.start
      yield* TestClock.adjust("499 millis")
      expect(late.signal.aborted).toBe(false)
      yield* TestClock.adjust("1 millis")
      expect([late.signal.aborted, early.signal.aborted]).toEqual([true, false])
    }))
})
