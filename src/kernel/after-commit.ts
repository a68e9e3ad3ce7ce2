// Effects that must follow a transaction only if it commits: a counter of credits charged must not count a
// charge that was rolled back. `afterCommit` inside a transaction defers the effect to the outermost
// commit (a nested transaction that fails, a savepoint undone, drops what it deferred); outside one it
// runs at once. The Transactor gets this behaviour from `committing`, applied where the adapters are
// chosen (app-layer.ts), so every store's transactions have it.
import { Effect, FiberRef, Layer } from "effect"
import { Transactor, type TransactorShape } from "../../domain/ports/transactor.ts"

/** What the innermost open transaction deferred; null outside a transaction. */
const deferred = FiberRef.unsafeMake<Array<Effect.Effect<void>> | null>(null)

export const afterCommit = (effect: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(deferred), (open) => open === null ? effect : Effect.sync(() => void open.push(effect)))

export const committing = (transactor: TransactorShape): TransactorShape => ({
  atomically: (self) =>
    Effect.flatMap(FiberRef.get(deferred), (parent) => {
      const mine: Array<Effect.Effect<void>> = []
      return transactor.atomically(Effect.locally(self, deferred, mine)).pipe(
        Effect.tap(() => parent === null ? Effect.all(mine, { discard: true }) : Effect.sync(() => void parent.push(...mine)))
      )
    })
})

/** The Transactor of `stores`, with after-commit effects. */
export const withAfterCommit = <A, E, R>(stores: Layer.Layer<A | Transactor, E, R>): Layer.Layer<A | Transactor, E, R> =>
  Layer.merge(stores, Layer.effect(Transactor, Effect.map(Transactor, committing)).pipe(Layer.provide(stores)))
