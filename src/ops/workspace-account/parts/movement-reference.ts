import { Schema } from "effect"

/** The operator's own reference for a top-up or grant: it keys the ledger entry, so a retry records nothing twice. */
export const MovementReference = Schema.optional(
  Schema.String.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(200)).annotations({
    description: "Your payment or ticket reference. A second call with the same reference records nothing more and answers the first entry."
  })
)
