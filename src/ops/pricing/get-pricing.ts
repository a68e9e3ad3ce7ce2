// GET /v1/pricing: the price of every operation, from the one table in domain/price-list.ts. It is the
// same for every workspace; it sits with the other /v1 reads (bearer token) rather than in public,
// as every /v1 route does, and the README prints the same table for readers without a token.
import { Effect, Schema } from "effect"
import { PRICE_LIST, PriceRow } from "../../../domain/price-list.ts"
import { operation } from "../../kernel/operation.ts"

const OperationPrice = Schema.Struct({
  operation: Schema.String.annotations({ description: "The operation's name (its operationId in /openapi.json)." }),
  prices: Schema.Array(PriceRow).annotations({
    description: "What it charges; one row of amount 0 when it is free. Rows may add up (a create that also renders)."
  })
}).annotations({ identifier: "OperationPrice", description: "What one operation costs." })

const Pricing = Schema.Struct({
  data: Schema.Array(OperationPrice).annotations({ description: "Every operation, each once." })
}).annotations({ identifier: "Pricing", description: "The price of every operation." })

export const getPricing = operation({
  name: "getPricing",
  summary: "Get the price list",
  description:
    "What every operation costs: free ones at 0 (reads, uploads, templates), and the rates of captions, speech and " +
    "rendering, with how lengths are counted and rounded. The same for every workspace.",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: Pricing,
  errors: [],
  http: { method: "GET", path: "/v1/pricing" },
  access: "workspace",
  tool: null,
  cli: "pricing",
  idempotent: false,
  handle: () =>
    Effect.succeed({
      data: Object.entries(PRICE_LIST).map(([name, prices]) => ({ operation: name, prices }))
    })
})
