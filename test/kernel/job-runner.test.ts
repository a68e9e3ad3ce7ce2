// The job runner: outcomes of handlers, crash retries with backoff, and the dead-job clean-up.
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Option, Ref, TestClock } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Done, makeJobRunner, MAX_CRASHES } from "../../src/kernel/job-runner.ts"

layer(MemoryStoresLive)("job runner", (it) => {
  it.effect("retries a crashing job with backoff, then kills it and calls onDead once", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const dead = yield* Ref.make<Array<string>>([])
      const runner = makeJobRunner([{
        kind: "test.crash",
        lane: "media",
        run: () => Ref.update(runs, (n) => n + 1).pipe(Effect.zipRight(Effect.dieMessage("disk on fire"))),
        onDead: (job, error) => Ref.update(dead, (d) => [...d, `${job.id}:${error.includes("disk on fire")}`])
      }])
      const queue = yield* JobQueue
      const job = Option.getOrThrow(yield* queue.enqueue({ lane: "media", kind: "test.crash", payload: {}, runAt: 0, dedupeKey: null }))
      yield* runner.drain("media")
      expect(yield* Ref.get(runs)).toBe(1)
      for (let attempt = 2; attempt <= MAX_CRASHES; attempt++) {
        yield* TestClock.adjust("1 minute")
        yield* runner.drain("media")
        expect(yield* Ref.get(runs)).toBe(attempt)
      }
      expect(yield* Ref.get(dead)).toEqual([`${job.id}:true`])
      expect(Option.map(yield* queue.get(job.id), (j) => j.status)).toEqual(Option.some("dead"))
      yield* TestClock.adjust("1 hour")
      yield* runner.drain("media")
      expect(yield* Ref.get(runs)).toBe(MAX_CRASHES)
    }))

  it.effect("completes Done jobs, reschedules RetryAt jobs at their time, and kills jobs of unknown kinds", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const start = yield* Clock.currentTimeMillis
      const runner = makeJobRunner([{
        kind: "test.later",
        lane: "webhooks",
        run: () =>
          Ref.updateAndGet(runs, (n) => n + 1).pipe(
            Effect.map((n) => (n === 1 ? { _tag: "RetryAt" as const, at: start + 90_000, error: "not yet" } : Done))
          ),
        onDead: () => Effect.void
      }])
      const queue = yield* JobQueue
      const later = Option.getOrThrow(yield* queue.enqueue({ lane: "webhooks", kind: "test.later", payload: {}, runAt: start, dedupeKey: null }))
      const stray = Option.getOrThrow(yield* queue.enqueue({ lane: "webhooks", kind: "test.unknown", payload: {}, runAt: start, dedupeKey: null }))
      yield* runner.drain("webhooks")
      expect(Option.map(yield* queue.get(stray.id), (j) => j.status)).toEqual(Option.some("dead"))
      expect(Option.map(yield* queue.get(later.id), (j) => [j.status, j.runAt, j.lastError])).toEqual(Option.some(["queued", start + 90_000, "not yet"]))
      yield* TestClock.adjust("89 seconds")
      yield* runner.drain("webhooks")
      expect(yield* Ref.get(runs)).toBe(1)
      yield* TestClock.adjust("1 second")
      yield* runner.drain("webhooks")
      expect(Option.map(yield* queue.get(later.id), (j) => j.status)).toEqual(Option.some("done"))
    }))
})
