// The cash balance: US dollars counted in integer micro-dollars (1 USD = 1,000,000), so per-second
// prices and marketplace charges stay exact integers. A cent is exactly 10,000 micro-dollars.
import { Schema } from "effect"

export const MICRODOLLARS_PER_CENT = 10_000

export const centsToMicrodollars = (cents: number): number => cents * MICRODOLLARS_PER_CENT

/** Entry kinds of the balance log. `marketplace_charge` is a purchase paid from the cash balance. */
export const CashKind = Schema.Literal("top_up", "render_charge", "render_refund", "marketplace_charge").annotations({
  description:
    "`top_up` (cash added by the operator), `render_charge` and `render_refund` (BYOK renders and their refunds), " +
    "`marketplace_charge` (a purchase paid from the cash balance)."
})
export type CashKind = typeof CashKind.Type
