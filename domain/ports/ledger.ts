import { Context, type Effect } from "effect"
import type { CreditOperation } from "../credit-operation.ts"
import type { InsufficientCredits } from "../errors.ts"

export interface LedgerEntry {
  readonly id: string
  readonly workspaceId: string
  /** Unique: posting the same key twice records one movement. */
  readonly key: string
  /** Credits: negative for a charge, positive for a refund or top-up. */
  readonly amount: number
  /** The workspace's balance right after this entry; the store computes it as it posts. */
  readonly balanceAfter: number
  readonly reason: string
  readonly operation: CreditOperation
  /** The piece of work (`videoId:work`) a charge paid for, if any. */
  readonly workKey: string | null
  readonly videoId: string | null
  readonly at: string
}

/** What a caller posts: the store adds the balance after it. */
export type NewLedgerEntry = Omit<LedgerEntry, "balanceAfter">

/** One page of a log, newest first; `nextCursor` (null on the last page) continues it. */
export interface EntryPage<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}

export interface LedgerShape {
  readonly balance: (workspaceId: string) => Effect.Effect<number>
  /**
   * Records a movement once per key (a repeated key returns the first entry). A charge that would
   * take the balance below zero fails with InsufficientCredits and records nothing.
   */
  readonly post: (entry: NewLedgerEntry) => Effect.Effect<LedgerEntry, InsufficientCredits>
  readonly entriesForWork: (workKey: string) => Effect.Effect<ReadonlyArray<LedgerEntry>>
  /** Every entry of a workspace, in posting order. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<LedgerEntry>>
  /** A workspace's entries newest first (optionally only one video's); a cursor no adapter made gives an empty page. */
  readonly page: (query: {
    readonly workspaceId: string
    readonly videoId: string | undefined
    readonly limit: number
    readonly cursor: string | undefined
  }) => Effect.Effect<EntryPage<LedgerEntry>>
}
export class Ledger extends Context.Tag("Ledger")<Ledger, LedgerShape>() {}
