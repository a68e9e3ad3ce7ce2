import { Context, type Effect } from "effect"
import type { InsufficientCredits } from "../errors.ts"

export interface LedgerEntry {
  readonly id: string
  readonly workspaceId: string
  /** Unique: posting the same key twice records one movement. */
  readonly key: string
  /** Credits: negative for a charge, positive for a refund or top-up. */
  readonly amount: number
  readonly reason: string
  /** The piece of work (`videoId:work`) a charge paid for, if any. */
  readonly workKey: string | null
  readonly videoId: string | null
  readonly at: string
}

export interface LedgerShape {
  readonly balance: (workspaceId: string) => Effect.Effect<number>
  /**
   * Records a movement once per key (a repeated key returns the first entry). A charge that would
   * take the balance below zero fails with InsufficientCredits and records nothing.
   */
  readonly post: (entry: LedgerEntry) => Effect.Effect<LedgerEntry, InsufficientCredits>
  readonly entriesForWork: (workKey: string) => Effect.Effect<ReadonlyArray<LedgerEntry>>
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<LedgerEntry>>
}
export class Ledger extends Context.Tag("Ledger")<Ledger, LedgerShape>() {}
