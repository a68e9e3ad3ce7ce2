import { Clock, Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { WebhookSecretStore } from "../../../domain/ports/webhook-secret-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { operation } from "../../kernel/operation.ts"
import { newId, newWebhookSecret, WEBHOOK_SECRET_PREFIX } from "../../kernel/secrets.ts"

export const setWebhookSecret = operation({
  name: "setWebhookSecret",
  summary: "Set the webhook signing secret (admin)",
  description:
    "Replaces all the workspace's webhook signing secrets by one: deliveries are then signed with it alone (Standard " +
    "Webhooks, `webhook-signature`). Without `secret` a new one is generated; `clear: true` removes them all and stops " +
    "signing. Workspace members manage their own secrets, several at once for a rotation, with /v1/webhook-secrets.",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace whose deliveries are signed." }) }),
  payload: Schema.Struct({
    secret: Schema.optional(
      Schema.String.pipe(Schema.startsWith(WEBHOOK_SECRET_PREFIX), Schema.minLength(30)).annotations({
        description: "The secret to sign with (`whsec_…`); left out, a random one."
      })
    ),
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
      const workspace = yield* (yield* WorkspaceStore).get(workspaceId)
      if (Option.isNone(workspace)) return yield* new NotFound({ resource: "workspace", id: workspaceId })
      const next = clear === true ? null : (secret ?? newWebhookSecret())
      const createdAt = new Date(yield* Clock.currentTimeMillis).toISOString()
      yield* (yield* WebhookSecretStore).replaceAll(
        workspaceId,
        next === null ? [] : [{ id: newId(), workspaceId, secret: next, createdAt, expiresAt: null }]
      )
      return { workspaceId, secret: next }
    })
})
