// Charging a record of work that is not a video (a caption removal, clips): one ledger entry per item
// under the record's work key, posted once, while the record is held and still working, and recorded on
// the record in the same transaction. Videos charge through charge-work.ts, by their piece of work.
import { Clock, Effect } from "effect"
import type { CreditOperation } from "../../../domain/credit-operation.ts"
import { WorkFailed } from "../../../domain/errors.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import type { WorkLifecycle, WorkRecord } from "../../kernel/work-lifecycle.ts"
import { newId } from "../../kernel/secrets.ts"
import { withSpan } from "../../kernel/spans.ts"

/** One thing a record of work pays for. */
export interface HeldCharge {
  /** Unique per record and item: a retried job posts nothing more. */
  readonly key: string
  readonly workKey: string
  readonly reason: string
  readonly operation: CreditOperation
  readonly credits: number
}

/** Posts the charge in the ledger, once. True when it was new (a repeated key answers the first entry). */
export const postHeldCharge = (record: Pick<WorkRecord, "workspaceId">, charge: HeldCharge, at: string) =>
  Effect.gen(function*() {
    const id = newId()
    const entry = yield* (yield* Ledger).post({
      id,
      workspaceId: record.workspaceId,
      key: charge.key,
      amount: -charge.credits,
      reason: charge.reason,
      operation: charge.operation,
      workKey: charge.workKey,
      videoId: null,
      at
    })
    return entry.id === id
  })

/**
 * Charges the record while it still works, and records what was new with `charged`. Short credits fail
 * the work with what is needed, what is there and `advice`.
 */
export const chargeHeldWork = <Rec extends WorkRecord, Ev, R>(
  work: Pick<WorkLifecycle<Rec, Ev, R>, "held" | "apply">,
  kind: { readonly name: string; readonly isWorking: (record: Rec) => boolean; readonly charged: (credits: number, at: string) => Ev },
  id: string,
  charge: HeldCharge,
  advice: string
) =>
  Effect.gen(function*() {
    const current = yield* work.held(id)
    if (!kind.isWorking(current)) return yield* new WorkFailed({ message: `The ${kind.name} had already ended when it was to be charged.` })
    if (charge.credits <= 0) return
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const posted = yield* postHeldCharge(current, charge, at).pipe(Effect.catchTag("InsufficientCredits", (e) =>
      new WorkFailed({ message: `insufficient credits: needs ${e.required}, has ${e.balance}. ${advice}` })))
    // Recorded at the charge's time on the record still held.
    if (posted) yield* work.apply(id, () => kind.charged(charge.credits, at))
  }).pipe(
    (self) => Effect.flatMap(Transactor, (tx) => tx.atomically(self)),
    withSpan("chargeHeldWork", { attributes: { work: kind.name, id, key: charge.key, credits: charge.credits } })
  )
