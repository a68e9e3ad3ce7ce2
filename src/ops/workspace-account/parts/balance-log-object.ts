import { Schema } from "effect"
import { CashKind } from "../../../../domain/cash.ts"
import type { CashEntry } from "../../../../domain/ports/cash-ledger.ts"

export const BalanceLog = Schema.Struct({
  id: Schema.String.annotations({ description: "The entry's id." }),
  kind: CashKind,
  amount: Schema.Int.annotations({ description: "Micro-dollars (1 USD = 1,000,000): negative for a charge, positive for a top-up or refund." }),
  balanceAfter: Schema.Int.annotations({ description: "The cash balance right after this entry, in micro-dollars." }),
  note: Schema.NullOr(Schema.String).annotations({ description: "The operator's note, or what was bought." }),
  videoId: Schema.NullOr(Schema.String).annotations({ description: "The video a render charge or refund was for, if any." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "BalanceLog", description: "One movement of the cash balance." })
export type BalanceLog = typeof BalanceLog.Type

export const presentBalanceLog = (entry: CashEntry): BalanceLog => ({
  id: entry.id,
  kind: entry.kind,
  amount: entry.amount,
  balanceAfter: entry.balanceAfter,
  note: entry.note,
  videoId: entry.videoId,
  createdAt: entry.at
})
