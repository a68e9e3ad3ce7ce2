import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { newId } from "../../kernel/secrets.ts"
import { CreditLog, presentCreditLog } from "./parts/credit-log-object.ts"
import { MovementReference } from "./parts/movement-reference.ts"

export const grantCredits = operation({
  name: "grantCredits",
  summary: "Grant credits (admin)",
  description: "Adds credits to a workspace's balance; the credit log shows them as a `top-up`.",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace to credit." }) }),
  payload: Schema.Struct({
    credits: Schema.Int.pipe(Schema.between(1, 1_000_000_000)).annotations({ description: "Credits to add." }),
    note: Schema.optional(Schema.String.pipe(Schema.maxLength(500))).annotations({ description: "The credit log's reason." }),
    reference: MovementReference
  }),
  output: CreditLog,
  errors: ["NotFound"],
  http: { method: "POST", path: "/admin/workspaces/:workspaceId/credits" },
  access: "admin",
  tool: null,
  cli: "credits:grant",
  idempotent: false,
  handle: ({ workspaceId, credits, note, reference }) =>
    Effect.gen(function*() {
      if (Option.isNone(yield* (yield* WorkspaceStore).get(workspaceId))) {
        return yield* new NotFound({ resource: "workspace", id: workspaceId })
      }
      const entry = yield* (yield* Ledger).post({
        id: newId(),
        workspaceId,
        key: `credits:${workspaceId}:${reference ?? newId()}`,
        amount: credits,
        reason: note ?? "credits granted",
        operation: "top-up",
        workKey: null,
        videoId: null,
        at: yield* nowIso
      }).pipe(Effect.orDie) // a positive amount is never refused
      return presentCreditLog(entry)
    })
})
