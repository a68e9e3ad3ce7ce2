import { Effect, Option, Schema } from "effect"
import { centsToMicrodollars } from "../../../domain/cash.ts"
import { NotFound } from "../../../domain/errors.ts"
import { CashLedger } from "../../../domain/ports/cash-ledger.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { newId } from "../../kernel/secrets.ts"
import { BalanceLog, presentBalanceLog } from "./parts/balance-log-object.ts"
import { MovementReference } from "./parts/movement-reference.ts"

export const topUpCash = operation({
  name: "topUpCash",
  summary: "Top up the cash balance (admin)",
  description:
    "Adds money to a workspace's cash balance (what BYOK renders and marketplace purchases are paid from). " +
    "Takes whole cents; the balance log records micro-dollars (1 cent = 10,000).",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace to credit." }) }),
  payload: Schema.Struct({
    cents: Schema.Int.pipe(Schema.between(1, 1_000_000_000)).annotations({ description: "US cents to add, e.g. 2500 for $25." }),
    note: Schema.optional(Schema.String.pipe(Schema.maxLength(500))).annotations({ description: "Shown in the balance log." }),
    reference: MovementReference
  }),
  output: BalanceLog,
  errors: ["NotFound"],
  http: { method: "POST", path: "/admin/workspaces/:workspaceId/top-ups" },
  access: "admin",
  tool: null,
  cli: "cash:top-up",
  idempotent: false,
  handle: ({ workspaceId, cents, note, reference }) =>
    Effect.gen(function*() {
      if (Option.isNone(yield* (yield* WorkspaceStore).get(workspaceId))) {
        return yield* new NotFound({ resource: "workspace", id: workspaceId })
      }
      const entry = yield* (yield* CashLedger).post({
        id: newId(),
        workspaceId,
        key: `top-up:${workspaceId}:${reference ?? newId()}`,
        kind: "top_up",
        amount: centsToMicrodollars(cents),
        note: note ?? null,
        videoId: null,
        at: yield* nowIso
      }).pipe(Effect.orDie) // a positive amount is never refused
      return presentBalanceLog(entry)
    })
})
