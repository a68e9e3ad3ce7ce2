// Effects deferred to a commit run once it commits and never for work rolled back, a failed nested
// transaction dropping only its own; the credits counter built on them counts a charge once, when its
// transaction commits, and not a repeated key or a charge rolled back.
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Metric, Ref } from "effect"
import { randomUUID } from "node:crypto"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import { afterCommit, withAfterCommit } from "../../src/kernel/after-commit.ts"
import { withChargeMetrics } from "../../src/kernel/credit-metrics.ts"
import { creditsCharged } from "../../src/kernel/metrics.ts"
import { createWorkspaceNow } from "../../src/ops/workspaces/create-workspace.ts"

const atomically = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.flatMap(Transactor, (tx) => tx.atomically(self))

const note = (log: Ref.Ref<ReadonlyArray<string>>, entry: string) => Ref.update(log, (entries) => [...entries, entry])

layer(withChargeMetrics(withAfterCommit(MemoryStoresLive)))("after commit", (it) => {
  it.effect("runs at once outside a transaction, after the commit inside one, never after a rollback", () =>
    Effect.gen(function*() {
      const log = yield* Ref.make<ReadonlyArray<string>>([])
      yield* afterCommit(note(log, "outside"))
      expect(yield* Ref.get(log)).toEqual(["outside"])

      yield* atomically(Effect.gen(function*() {
        yield* afterCommit(note(log, "committed"))
        expect(yield* Ref.get(log)).toEqual(["outside"])
      }))
      expect(yield* Ref.get(log)).toEqual(["outside", "committed"])

      const failed = yield* Effect.exit(atomically(Effect.zipRight(afterCommit(note(log, "rolled back")), Effect.fail("no"))))
      expect(Exit.isFailure(failed)).toBe(true)
      expect(yield* Ref.get(log)).toEqual(["outside", "committed"])
    }))

  it.effect("drops what a failed nested transaction deferred and keeps the outer one's", () =>
    Effect.gen(function*() {
      const log = yield* Ref.make<ReadonlyArray<string>>([])
      yield* atomically(Effect.gen(function*() {
        yield* afterCommit(note(log, "outer"))
        yield* atomically(Effect.zipRight(afterCommit(note(log, "inner undone")), Effect.fail("no"))).pipe(Effect.ignore)
        yield* atomically(afterCommit(note(log, "inner kept")))
        expect(yield* Ref.get(log)).toEqual([])
      }))
      expect(yield* Ref.get(log)).toEqual(["outer", "inner kept"])
    }))

  it.effect("counts a committed charge once, not its repeat and not a charge rolled back", () =>
    Effect.gen(function*() {
      const { workspaceId } = yield* createWorkspaceNow({ name: "Metrics", ownerEmail: "m@metrics.test", plan: "pro", credits: 100 })
      const counter = Metric.tagged(creditsCharged, "operation", "speech")
      const before = (yield* Metric.value(counter)).count
      const ledger = yield* Ledger
      const charge = (key: string, amount: number) =>
        ledger.post({ id: randomUUID(), workspaceId, key, amount, reason: "speech", operation: "speech", workKey: null, videoId: null, at: new Date(0).toISOString() })
      const key = `speech:${randomUUID()}`
      yield* atomically(charge(key, -7))
      yield* atomically(charge(key, -7))
      yield* Effect.exit(atomically(Effect.zipRight(charge(`speech:${randomUUID()}`, -5), Effect.fail("no"))))
      yield* charge(`grant:${randomUUID()}`, 50)
      expect((yield* Metric.value(counter)).count - before).toBe(7)
    }))
})
