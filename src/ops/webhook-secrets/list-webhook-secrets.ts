// GET /v1/webhook-secrets, tool list_webhook_secrets: the workspace's signing secrets, by prefix only.
import { Clock, Effect, Schema } from "effect"
import { WebhookSecretStore } from "../../../domain/ports/webhook-secret-store.ts"
import { MAX_ACTIVE_WEBHOOK_SECRETS } from "../../../domain/webhook-secrets.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { presentWebhookSecret, WebhookSecretObject } from "./parts/webhook-secret-object.ts"

export const listWebhookSecrets = operation({
  name: "listWebhookSecrets",
  summary: "List the webhook signing secrets",
  description:
    "The workspace's webhook signing secrets, oldest first, each shown by its prefix (`whsec_` and four characters) " +
    "with its expiry and whether it signs deliveries now. Deliveries carry one signature per active secret; with none, " +
    "they are not signed.",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    data: Schema.Array(WebhookSecretObject).annotations({
      description: `Oldest first; at most ${MAX_ACTIVE_WEBHOOK_SECRETS} active, and expired ones until the next create removes them.`
    })
  }).annotations({ identifier: "WebhookSecretList" }),
  errors: [],
  http: { method: "GET", path: "/v1/webhook-secrets" },
  access: "workspace",
  tool: "list_webhook_secrets",
  cli: "webhook-secret:list",
  idempotent: false,
  handle: () =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const now = yield* Clock.currentTimeMillis
      const secrets = yield* (yield* WebhookSecretStore).list(workspace.id)
      return { data: secrets.map((secret) => presentWebhookSecret(secret, now)) }
    })
})
