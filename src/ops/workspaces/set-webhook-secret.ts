import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { operation } from "../../kernel/operation.ts"
import { newWebhookSecret, WEBHOOK_SECRET_PREFIX } from "../../kernel/secrets.ts"

export const setWebhookSecret = operation({
  name: "setWebhookSecret",
  summary: "Set the webhook signing secret (admin)",
  description:
    "Deliveries are then signed with Standard Webhooks (`webhook-signature`). Without `secret` a new one is generated; `clear: true` stops signing.",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace whose deliveries are signed." }) }),
  payload: Schema.Struct({
    secret: Schema.optional(Schema.String.pipe(Schema.startsWith(WEBHOOK_SECRET_PREFIX), Schema.minLength(30))),
    clear: Schema.optional(Schema.Boolean).annotations({ description: "true: stop signing." })
  }),
  output: Schema.Struct({
    workspaceId: Schema.String.annotations({ description: "The workspace." }),
    secret: Schema.NullOr(Schema.String).annotations({ description: "The signing secret now in force (`whsec_…`), or null." })
  }),
  errors: ["NotFound"],
  http: { method: "POST", path: "/admin/workspaces/:workspaceId/webhook-secret" },
  access: "admin",
  tool: null,
  cli: "webhook-secret:set",
  idempotent: false,
  handle: ({ workspaceId, secret, clear }) =>
    Effect.gen(function*() {
      const store = yield* WorkspaceStore
      const workspace = yield* store.get(workspaceId)
      if (Option.isNone(workspace)) return yield* new NotFound({ resource: "workspace", id: workspaceId })
      const next = clear === true ? null : (secret ?? newWebhookSecret())
      yield* store.update({ ...workspace.value, webhookSecret: next })
      return { workspaceId, secret: next }
    }).pipe(Effect.withSpan("setWebhookSecret"))
})
