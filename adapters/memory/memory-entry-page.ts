// One page of an in-memory log, newest first. A log is append-only and a rolled-back transaction
// restores it whole, so an entry's position (1-based) in its table is its posting sequence number.
import { Option } from "effect"
import type { EntryPage } from "../../domain/ports/ledger.ts"
import { decodeLedgerCursor, encodeLedgerCursor } from "../ledger-cursor.ts"

export const entryPage = <A>(
  table: ReadonlyArray<A>,
  matches: (entry: A) => boolean,
  limit: number,
  cursor: string | undefined
): EntryPage<A> => {
  // A cursor this adapter did not make points past the end: an empty page rather than a restart.
  const before = cursor === undefined ? Option.some(table.length + 1) : decodeLedgerCursor(cursor)
  if (Option.isNone(before)) return { items: [], nextCursor: null }
  const items: Array<A> = []
  let last = 0
  for (let position = Math.min(before.value, table.length + 1) - 1; position >= 1; position--) {
    const entry = table[position - 1]!
    if (!matches(entry)) continue
    // One entry past the page says whether another page follows.
    if (items.length === limit) return { items, nextCursor: encodeLedgerCursor(last) }
    items.push(entry)
    last = position
  }
  return { items, nextCursor: null }
}
