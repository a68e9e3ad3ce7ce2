// The job runner: outcomes of handlers, crash retries with backoff, and the dead-job clean-up.
import { expect, layer } from "@effect/vitest"
import { Clock, type Duration, Effect, Fiber, Layer, Option, Ref, TestClock } from "effect"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Done } from "../../src/kernel/job.ts"
import { makeJobRunner, MAX_CRASHES } from "../../src/kernel/job-runner.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"

layer(Layer.merge(MemoryStoresLive, ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: join(tmpdir(), `reelwright-job-runner-${process.pid}`) })))("job runner", (it) => {
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

  it.effect("on shutdown lets a running job finish within the grace period, else releases its lease", () =>
    Effect.gen(function*() {
      const finished = yield* Ref.make(0)
      const runner = makeJobRunner([{
        kind: "test.slow",
        lane: "media",
        run: () => Effect.sleep("5 seconds").pipe(Effect.zipRight(Ref.update(finished, (n) => n + 1)), Effect.as(Done)),
        onDead: () => Effect.void
      }])
      const queue = yield* JobQueue
      const now = yield* Clock.currentTimeMillis
      const shutDown = (grace: Duration.DurationInput) =>
        Effect.gen(function*() {
          const job = Option.getOrThrow(yield* queue.enqueue({ lane: "media", kind: "test.slow", payload: {}, runAt: now, dedupeKey: null }))
          const worker = yield* Effect.fork(runner.run({ pollInterval: "1 second", concurrency: { media: 1, webhooks: 0 }, grace }))
          yield* TestClock.adjust("1 second")
          expect(Option.map(yield* queue.get(job.id), (j) => j.status)).toEqual(Option.some("running"))
          const stopping = yield* Effect.fork(Fiber.interrupt(worker))
          // Small steps, so the grace timer (registered once the interrupt arrives) fires at its time.
          while (Option.isNone(yield* Fiber.poll(stopping))) yield* TestClock.adjust("100 millis")
          return Option.getOrThrow(yield* queue.get(job.id))
        })

      const patient = yield* shutDown("30 seconds")
      expect(patient.status).toBe("done")
      expect(yield* Ref.get(finished)).toBe(1)

      const hasty = yield* shutDown("2 seconds")
      expect([hasty.status, hasty.attempts, hasty.lockedUntil]).toEqual(["queued", 0, null])
      expect(yield* Ref.get(finished)).toBe(1)
      yield* queue.kill(hasty.id, "test over")
    }))

  it.effect("kills a job whose worker process died on every claim, without running it again", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const dead = yield* Ref.make<Array<string>>([])
      const runner = makeJobRunner([{
        kind: "test.poison",
        lane: "media",
        run: () => Ref.update(runs, (n) => n + 1).pipe(Effect.as(Done)),
        onDead: (_, error) => Ref.update(dead, (d) => [...d, error])
      }], { leaseMs: 1_000 })
      const queue = yield* JobQueue
      const now = yield* Clock.currentTimeMillis
      const job = Option.getOrThrow(yield* queue.enqueue({ lane: "media", kind: "test.poison", payload: {}, runAt: now, dedupeKey: null }))
      // Three claims whose worker vanished: nobody completes them, the lease lapses each time.
      for (let i = 0; i < MAX_CRASHES; i++) {
        expect(Option.isSome(yield* queue.claim("media", 1_000, "vanished-worker:1"))).toBe(true)
        yield* TestClock.adjust("2 seconds")
      }
      yield* runner.drain("media")
      expect(yield* Ref.get(runs)).toBe(0)
      expect(yield* Ref.get(dead)).toEqual([`the worker stopped ${MAX_CRASHES} times while running this job`])
      expect(Option.map(yield* queue.get(job.id), (j) => j.status)).toEqual(Option.some("dead"))
    }))
})
