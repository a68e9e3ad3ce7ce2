// What caused a movement of credits: the kind of work charged, or how credits came in or went back.
import { Schema } from "effect"

export const CreditOperation = Schema.Literal(
  "opening balance",
  "top-up",
  "monthly grant",
  "captions",
  "reframing",
  "clip selection",
  "speech",
  "render",
  "screenshot",
  "caption removal",
  "refund"
)
  .annotations({
    description:
      "What caused the movement: `opening balance` (set when the workspace was made), `top-up` (credits granted by the operator), " +
      "`monthly grant` (the plan's credits for a calendar month), " +
      "`captions`, `reframing`, `clip selection`, `speech`, `render`, `screenshot` or `caption removal` (work charged), `refund` (failed work paid back)."
  })
export type CreditOperation = typeof CreditOperation.Type
