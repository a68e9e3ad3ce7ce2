import { Context, type Effect, type Option } from "effect"
import type { CashKind } from "../cash.ts"
import type { InsufficientCash } from "../errors.ts"
import type { EntryPage } from "./ledger.ts"

/** One movement of the cash balance (the balance log). Amounts are integer micro-dollars. */
export interface CashEntry {
  readonly id: string
  readonly workspaceId: string
  /** Unique: posting the same key twice records one movement. */
  readonly key: string
  readonly kind: CashKind
  /** Micro-dollars: negative for a charge, positive for a top-up or refund. */
  readonly amount: number
  /** The cash balance right after this entry; the store computes it as it posts. */
  readonly balanceAfter: number
  readonly note: string | null
  readonly videoId: string | null
  readonly at: string
}

/** What a caller posts: the store adds the balance after it. */
export type NewCashEntry = Omit<CashEntry, "balanceAfter">

export interface CashLedgerShape {
  readonly balance: (workspaceId: string) => Effect.Effect<number>
  /**
   * Records a movement once per key (a repeated key returns the first entry). A charge that would
   * take the balance below zero fails with InsufficientCash and records nothing.
   */
  readonly post: (entry: NewCashEntry) => Effect.Effect<CashEntry, InsufficientCash>
  /** The entry posted under `key`, if any (a render's charge, to refund it). */
  readonly entry: (key: string) => Effect.Effect<Option.Option<CashEntry>>
  /** A workspace's entries newest first; a cursor no adapter made gives an empty page. */
  readonly page: (query: {
    readonly workspaceId: string
    readonly limit: number
    readonly cursor: string | undefined
  }) => Effect.Effect<EntryPage<CashEntry>>
}
export class CashLedger extends Context.Tag("CashLedger")<CashLedger, CashLedgerShape>() {}
