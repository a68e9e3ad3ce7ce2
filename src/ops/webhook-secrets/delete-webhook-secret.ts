// DELETE /v1/webhook-secrets/:id, tool delete_webhook_secret: deliveries are no longer signed with it.
import { Effect, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { WebhookSecretStore } from "../../../domain/ports/webhook-secret-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { WebhookSecretId } from "./parts/webhook-secret-object.ts"

export const deleteWebhookSecret = operation({
  name: "deleteWebhookSecret",
  summary: "Delete a webhook signing secret",
  description:
    "Deliveries sent from now on are not signed with it (the end of a rotation); attempts already made were. " +
    "Deleting the last active secret leaves deliveries unsigned.",
  path: Schema.Struct({ id: WebhookSecretId }),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    id: WebhookSecretId,
    deleted: Schema.Literal(true).annotations({ description: "Always true." })
  }),
  errors: ["NotFound"],
  http: { method: "DELETE", path: "/v1/webhook-secrets/:id" },
  access: "workspace",
  tool: "delete_webhook_secret",
  cli: "webhook-secret:delete",
  idempotent: false,
  handle: ({ id }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      if (!(yield* (yield* WebhookSecretStore).remove(workspace.id, id))) {
        return yield* new NotFound({ resource: "webhook secret", id })
      }
      return { id, deleted: true as const }
    })
})
