// Credits charged, counted where every charge passes: the Ledger. A charge counts once it is committed
// (after-commit.ts) and only when it was posted now: a repeated key returns the first entry and moves
// nothing. Refunds are counted by refund-credits.ts, which knows the operation each one pays back.
import { Effect, Layer, Metric } from "effect"
import { Ledger, type LedgerEntry, type LedgerShape } from "../../domain/ports/ledger.ts"
import { afterCommit } from "./after-commit.ts"
import { creditsCharged, creditsRefunded, seriesOf } from "./metrics.ts"

const chargedOf = seriesOf(creditsCharged, "operation")
const refundedOf = seriesOf(creditsRefunded, "operation")

/** Whether `post` recorded this entry now (its id is the one posted), not an earlier one with the key. */
export const postedNow = (posted: { readonly id: string }, entry: LedgerEntry): boolean => entry.id === posted.id

export const countCharges = (ledger: LedgerShape): LedgerShape => ({
  ...ledger,
  post: (posted) =>
    Effect.tap(ledger.post(posted), (entry) =>
      postedNow(posted, entry) && entry.amount < 0
        ? afterCommit(Metric.incrementBy(chargedOf(entry.operation), -entry.amount))
        : Effect.void)
})

/** Counts a refund of `credits` paid back for a charge of `operation`, once committed. */
export const countRefund = (operation: string, credits: number) =>
  afterCommit(Metric.incrementBy(refundedOf(operation), credits))

/** The Ledger of `stores`, counting its charges. */
export const withChargeMetrics = <A, E, R>(stores: Layer.Layer<A | Ledger, E, R>): Layer.Layer<A | Ledger, E, R> =>
  Layer.merge(stores, Layer.effect(Ledger, Effect.map(Ledger, countCharges)).pipe(Layer.provide(stores)))
