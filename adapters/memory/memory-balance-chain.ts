// The append-only balance chain behind both in-memory ledgers (credits and cash): entries carry the
// balance after them, so the workspace's last one holds its balance.
import { Effect, Either, Option } from "effect"
import type { EntryPage } from "../../domain/ports/ledger.ts"
import type { MemoryDatabaseShape, Tables } from "./memory-database.ts"
import { entryPage } from "./memory-entry-page.ts"

/** What the chain needs of a new entry. */
interface ChainEntry {
  readonly workspaceId: string
  /** Unique across the table: posting the same key twice records one movement. */
  readonly key: string
  readonly amount: number
}

/** A new entry as posted: with the balance after it. */
type Posted<N> = N & { readonly balanceAfter: number }

export interface BalanceChainSpec<N, E> {
  /** The chain's table, in posting order. */
  readonly entries: (tables: Tables) => ReadonlyArray<Posted<N>>
  readonly withEntries: (tables: Tables, entries: ReadonlyArray<Posted<N>>) => Tables
  /** The error of a charge larger than the balance. */
  readonly refuse: (shortfall: { readonly required: number; readonly balance: number }) => E
}

const balanceOf = <N extends ChainEntry>(entries: ReadonlyArray<Posted<N>>, workspaceId: string): number =>
  entries.findLast((entry) => entry.workspaceId === workspaceId)?.balanceAfter ?? 0

export const memoryBalanceChain = <N extends ChainEntry, E>(db: MemoryDatabaseShape, spec: BalanceChainSpec<N, E>) => ({
  balance: (workspaceId: string): Effect.Effect<number> => db.read((t) => balanceOf(spec.entries(t), workspaceId)),
  /** The entry posted under `key`, if any. */
  byKey: (key: string): Effect.Effect<Option.Option<Posted<N>>> =>
    db.read((t) => Option.fromNullable(spec.entries(t).find((e) => e.key === key))),
  /**
   * Records a movement once per key; a charge past the balance fails with `refuse`'s error and records
   * nothing. Check and append are one step, so concurrent charges cannot both spend the same balance.
   */
  post: (entry: N): Effect.Effect<Posted<N>, E> =>
    db.modify((t): readonly [Either.Either<Posted<N>, E>, Tables] => {
      const entries = spec.entries(t)
      const first = entries.find((e) => e.key === entry.key)
      if (first !== undefined) return [Either.right(first), t]
      const balance = balanceOf(entries, entry.workspaceId)
      if (entry.amount < 0 && balance + entry.amount < 0) {
        return [Either.left(spec.refuse({ required: -entry.amount, balance })), t]
      }
      const posted: Posted<N> = { ...entry, balanceAfter: balance + entry.amount }
      return [Either.right(posted), spec.withEntries(t, [...entries, posted])]
    }).pipe(Effect.flatten),
  /** A workspace's entries that `matches` keeps, newest first. */
  page: (query: {
    readonly workspaceId: string
    readonly matches: (entry: Posted<N>) => boolean
    readonly limit: number
    readonly cursor: string | undefined
  }): Effect.Effect<EntryPage<Posted<N>>> =>
    db.read((t) =>
      entryPage(spec.entries(t), (e) => e.workspaceId === query.workspaceId && query.matches(e), query.limit, query.cursor)
    )
})
