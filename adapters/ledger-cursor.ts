// The opaque cursor of the credit and balance logs, shared by every adapter so a cursor means the same
// everywhere: the posting sequence number of the last entry returned, as base64url text. Posting order
// (not the entry's time) is what orders a log, so equal timestamps never reorder its balances.
import { Option } from "effect"

export const encodeLedgerCursor = (sequence: number): string => Buffer.from(`seq:${sequence}`).toString("base64url")

/** None for a cursor no adapter made. */
export const decodeLedgerCursor = (cursor: string): Option.Option<number> => {
  const match = /^seq:([1-9][0-9]{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"))
  return match === null ? Option.none() : Option.some(Number(match[1]))
}
