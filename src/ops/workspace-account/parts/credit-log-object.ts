import { Schema } from "effect"
import { CreditOperation } from "../../../../domain/credit-operation.ts"
import type { LedgerEntry } from "../../../../domain/ports/ledger.ts"

export const CreditLog = Schema.Struct({
  id: Schema.String.annotations({ description: "The entry's id." }),
  amount: Schema.Int.annotations({ description: "Credits: negative for a charge, positive for a refund or top-up." }),
  balanceAfter: Schema.Int.annotations({ description: "The workspace's credit balance right after this entry." }),
  reason: Schema.String.annotations({ description: "What the movement was for, in words (e.g. `render`, `refund: captions`)." }),
  operation: CreditOperation,
  videoId: Schema.NullOr(Schema.String).annotations({ description: "The video the movement paid for (or refunded), if any." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "CreditLog", description: "One movement of the credit balance." })
export type CreditLog = typeof CreditLog.Type

export const presentCreditLog = (entry: LedgerEntry): CreditLog => ({
  id: entry.id,
  amount: entry.amount,
  balanceAfter: entry.balanceAfter,
  reason: entry.reason,
  operation: entry.operation,
  videoId: entry.videoId,
  createdAt: entry.at
})
