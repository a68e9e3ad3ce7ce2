// Idempotency-Key around one operation, on the memory stores with the test clock: the request holding a
// key does the work, others wait for its answer (or hear that it still runs), a failure frees the key,
// and a reservation whose holder died is taken over after ten minutes.
import { expect, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Option, Ref, Schema, TestClock } from "effect"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { Conflict } from "../../domain/errors.ts"
import { IdempotencyStore } from "../../domain/ports/idempotency-store.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { withIdempotency } from "../../src/kernel/idempotency.ts"
import { aWorkspace } from "../contract/fixtures.ts"

const workspace = aWorkspace()
const TestLayer = Layer.merge(MemoryStoresLive, Layer.succeed(CurrentWorkspace, workspace))
const Answer = Schema.Struct({ run: Schema.Number })
const REQUEST = { script: "hello" }

/** A piece of work that counts its runs and answers with its run's number once `gate` opens (at once without one). */
const work = (runs: Ref.Ref<number>, gate?: Deferred.Deferred<void>) =>
  Effect.gen(function*() {
    const run = yield* Ref.updateAndGet(runs, (n) => n + 1)
    if (gate !== undefined) yield* Deferred.await(gate)
    return { run }
  })

const send = <E>(key: string, run: Effect.Effect<{ run: number }, E>, request: unknown = REQUEST) =>
  withIdempotency(key, "textToSpeech", request, Answer, run)

/** Forks a request and returns once it holds its key. */
const holding = <E>(key: string, run: Effect.Effect<{ run: number }, E>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(send(key, run))
    const store = yield* IdempotencyStore
    while (Option.isNone(yield* store.get(workspace.id, key))) yield* Effect.yieldNow()
    return fiber
  })

const conflictMessage = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(self), (e) => (e instanceof Conflict ? e.message : String(e)))

layer(TestLayer)("withIdempotency", (it) => {
  it.effect("runs the work once for requests that arrive while it runs, and gives each its answer", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const gate = yield* Deferred.make<void>()
      const first = yield* holding("wait", work(runs, gate))
      const second = yield* Effect.fork(send("wait", work(runs)))
      yield* TestClock.adjust("1 second")
      yield* Deferred.succeed(gate, undefined)
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(first)).toEqual({ run: 1 })
      expect(yield* Fiber.join(second)).toEqual({ run: 1 })
      expect(yield* send("wait", work(runs))).toEqual({ run: 1 })
      expect(yield* Ref.get(runs)).toBe(1)
    }))

  it.effect("answers 409 when the first request still runs after the wait, and for another body", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const gate = yield* Deferred.make<void>()
      const first = yield* holding("slow", work(runs, gate))
      expect(yield* conflictMessage(send("slow", work(runs), { script: "other" }))).toMatch(/different request/)
      const second = yield* Effect.fork(conflictMessage(send("slow", work(runs))))
      yield* TestClock.adjust("11 seconds")
      expect(yield* Fiber.join(second)).toMatch(/still in progress/)
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(first)).toEqual({ run: 1 })
      expect(yield* conflictMessage(send("slow", work(runs), { script: "other" }))).toMatch(/different request/)
      expect(yield* Ref.get(runs)).toBe(1)
    }))

  it.effect("frees the key when the work fails: the request runs again, a waiting one in its place", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const refused = Effect.zipRight(Ref.update(runs, (n) => n + 1), Effect.fail("insufficient credits" as const))
      expect(yield* Effect.flip(send("fails", refused))).toBe("insufficient credits")
      expect(yield* send("fails", work(runs))).toEqual({ run: 2 })

      const gate = yield* Deferred.make<void>()
      const first = yield* holding("dies", Effect.zipRight(work(runs, gate), Effect.dieMessage("crashed")))
      const second = yield* Effect.fork(send("dies", work(runs)))
      yield* TestClock.adjust("1 second")
      yield* Deferred.succeed(gate, undefined)
      expect(Exit.isFailure(yield* Fiber.await(first))).toBe(true)
      yield* TestClock.adjust("1 second")
      expect(yield* Fiber.join(second)).toEqual({ run: 4 })
      expect(yield* send("dies", work(runs))).toEqual({ run: 4 })
    }))

  it.effect("takes over a key whose holder never answered once the reservation expired", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const store = yield* IdempotencyStore
      // The request's fingerprint, as its first try reserved it before its process died.
      const probe = yield* holding("probe", work(runs, yield* Deferred.make<void>()))
      const { fingerprint } = Option.getOrThrow(yield* store.get(workspace.id, "probe"))
      yield* Fiber.interrupt(probe)
      yield* store.reserve({
        workspaceId: workspace.id,
        key: "orphan",
        fingerprint,
        holder: "a process that died",
        reservedAt: new Date(0).toISOString(),
        staleBefore: new Date(0).toISOString()
      })
      yield* TestClock.adjust("9 minutes")
      const early = yield* Effect.fork(conflictMessage(send("orphan", work(runs))))
      yield* TestClock.adjust("11 seconds")
      expect(yield* Fiber.join(early)).toMatch(/still in progress/)
      yield* TestClock.adjust("1 minute")
      expect(yield* send("orphan", work(runs))).toEqual({ run: 2 })
      expect(yield* send("orphan", work(runs))).toEqual({ run: 2 })
    }))
})
