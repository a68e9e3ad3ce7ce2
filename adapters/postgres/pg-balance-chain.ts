// The append-only balance chain behind both PostgreSQL ledgers (credits and cash): each entry carries
// the workspace's balance after it, so the newest entry holds the balance. A post reads the balance and
// appends in one transaction that holds an advisory lock per workspace, so concurrent charges on any
// number of machines cannot spend the same balance, and each entry's balance_after follows the one
// before it. (The workspace row is not locked instead: entries do not require one to exist.)
import type { SqlClient, Statement } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { EntryPage } from "../../domain/ports/ledger.ts"
import { decodeLedgerCursor, encodeLedgerCursor } from "../ledger-cursor.ts"
import { rowDecoder, type RowDecoder } from "./pg-rows.ts"
import { NumberFromBigint } from "./pg-values.ts"

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
  /** Holds `seq` (posting order), `workspace_id`, `key` (unique), `balance_after`. */
  readonly table: string
  /** Names the per-workspace advisory lock, so each chain's posts serialize apart from the other's. */
  readonly lockPrefix: string
  /** Decodes the table's rows (`SELECT *`). */
  readonly entries: RowDecoder<Posted<N>>
  /** The columns an entry is inserted as. */
  readonly toRow: (entry: Posted<N>) => Record<string, unknown>
  /** The error of a charge larger than the balance. */
  readonly refuse: (shortfall: { readonly required: number; readonly balance: number }) => E
}

export const pgBalanceChain = <N extends ChainEntry, E extends { readonly _tag: string }>(
  sql: SqlClient.SqlClient,
  spec: BalanceChainSpec<N, E>
) => {
  const table = sql(spec.table)
  const balanceRows = rowDecoder(spec.table, Schema.Struct({ balance_after: NumberFromBigint }))
  const seqRows = rowDecoder(spec.table, Schema.Struct({ seq: NumberFromBigint }))

  const balance = (workspaceId: string) =>
    sql`SELECT balance_after FROM ${table} WHERE workspace_id = ${workspaceId} ORDER BY seq DESC LIMIT 1`.pipe(
      Effect.flatMap(balanceRows.first),
      Effect.map(Option.match({ onNone: () => 0, onSome: (row) => row.balance_after }))
    )

  const byKey = (key: string) => sql`SELECT * FROM ${table} WHERE key = ${key}`.pipe(Effect.flatMap(spec.entries.first))

  const post = (entry: N) =>
    Effect.gen(function*() {
      yield* sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${spec.lockPrefix}:${entry.workspaceId}`}, 0))`
      const first = yield* byKey(entry.key)
      if (Option.isSome(first)) return first.value
      const current = yield* balance(entry.workspaceId)
      if (entry.amount < 0 && current + entry.amount < 0) {
        return yield* Effect.fail(spec.refuse({ required: -entry.amount, balance: current }))
      }
      const posted: Posted<N> = { ...entry, balanceAfter: current + entry.amount }
      // The key may have been taken meanwhile by a post for another workspace (it holds another lock).
      const inserted = yield* sql`INSERT INTO ${table} ${sql.insert(spec.toRow(posted))}
        ON CONFLICT (key) DO NOTHING RETURNING id`
      return inserted.length > 0 ? posted : Option.getOrThrow(yield* byKey(entry.key))
    }).pipe(sql.withTransaction)

  return {
    balance: (workspaceId: string): Effect.Effect<number> => balance(workspaceId).pipe(Effect.orDie),
    /** The entry posted under `key`, if any. */
    byKey: (key: string): Effect.Effect<Option.Option<Posted<N>>> => byKey(key).pipe(Effect.orDie),
    /** Records a movement once per key; a charge past the balance fails with `refuse`'s error and records nothing. */
    post: (entry: N): Effect.Effect<Posted<N>, E> =>
      post(entry).pipe(Effect.catchTag("SqlError", Effect.die)),
    /** A workspace's entries newest first, narrowed by `where`; a cursor no adapter made gives an empty page. */
    page: (query: {
      readonly workspaceId: string
      readonly where: ReadonlyArray<Statement.Fragment>
      readonly limit: number
      readonly cursor: string | undefined
    }): Effect.Effect<EntryPage<Posted<N>>> => {
      const { cursor, limit, where, workspaceId } = query
      // A cursor this adapter did not make points past the end: an empty page rather than a restart.
      const before = cursor === undefined ? Option.some(undefined) : decodeLedgerCursor(cursor)
      if (Option.isNone(before)) return Effect.succeed({ items: [], nextCursor: null })
      const conditions = [
        sql`workspace_id = ${workspaceId}`,
        ...where,
        ...(before.value === undefined ? [] : [sql`seq < ${before.value}`])
      ]
      // One row past the page says whether another page follows.
      return sql`SELECT * FROM ${table} WHERE ${sql.and(conditions)} ORDER BY seq DESC LIMIT ${limit + 1}`.pipe(
        Effect.flatMap((rows) => {
          const last = rows[limit - 1]
          return Effect.all({
            items: spec.entries.all(rows.slice(0, limit)),
            nextCursor: rows.length > limit && last !== undefined
              ? Effect.map(seqRows.one(last), (row) => encodeLedgerCursor(row.seq))
              : Effect.succeed(null)
          })
        }),
        Effect.orDie
      )
    }
  }
}
