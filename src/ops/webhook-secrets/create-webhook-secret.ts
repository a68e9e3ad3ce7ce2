// POST /v1/webhook-secrets, tool create_webhook_secret: a new signing secret, shown whole this once.
import { Clock, Effect, Schema } from "effect"
import { Conflict } from "../../../domain/errors.ts"
import { WebhookSecretStore } from "../../../domain/ports/webhook-secret-store.ts"
import { MAX_ACTIVE_WEBHOOK_SECRETS } from "../../../domain/webhook-secrets.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { newId, newWebhookSecret } from "../../kernel/secrets.ts"
import {
  ExpiresInSeconds,
  ExpiryInstant,
  presentWebhookSecret,
  requestedExpiry,
  WebhookSecretObject
} from "./parts/webhook-secret-object.ts"

export const CreatedWebhookSecret = Schema.Struct({
  ...WebhookSecretObject.fields,
  secret: Schema.String.annotations({
    description: "The whole secret (`whsec_` + base64 of 32 random bytes), for the receiver's Standard Webhooks library. " +
      "Shown only in this answer: store it now."
  })
}).annotations({ identifier: "CreatedWebhookSecret", description: "The new secret, shown whole this once." })

export const createWebhookSecret = operation({
  name: "createWebhookSecret",
  summary: "Create a webhook signing secret",
  description:
    "Makes a new secret that signs the workspace's webhook deliveries (Standard Webhooks, header `webhook-signature`) " +
    "from now on, beside the secrets already active: each delivery carries one signature per active secret, so a " +
    "receiver that knows any of them verifies it. The whole secret is in this answer only. To rotate: create a new " +
    "one, give it to the receiver, then delete the old one (or set its expiry). `expiresInSeconds` or `expiresAt` " +
    `makes it stop signing then. At most ${MAX_ACTIVE_WEBHOOK_SECRETS} secrets are active at once: another is a 409 ` +
    "until one is deleted or expires; a create removes the workspace's expired secrets.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    expiresInSeconds: Schema.optional(ExpiresInSeconds),
    expiresAt: Schema.optional(ExpiryInstant)
  }),
  output: CreatedWebhookSecret,
  errors: ["InvalidInput", "Conflict"],
  http: { method: "POST", path: "/v1/webhook-secrets" },
  access: "workspace",
  tool: "create_webhook_secret",
  cli: "webhook-secret:create",
  idempotent: false,
  handle: ({ expiresInSeconds, expiresAt }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const now = yield* Clock.currentTimeMillis
      const expiry = yield* requestedExpiry({ expiresInSeconds, expiresAt }, now)
      const secret = {
        id: newId(),
        workspaceId: workspace.id,
        secret: newWebhookSecret(),
        createdAt: new Date(now).toISOString(),
        expiresAt: expiry ?? null
      }
      if (!(yield* (yield* WebhookSecretStore).add(secret, MAX_ACTIVE_WEBHOOK_SECRETS))) {
        return yield* new Conflict({
          message: `The workspace already has ${MAX_ACTIVE_WEBHOOK_SECRETS} active webhook secrets, the most it may hold: ` +
            "delete one (DELETE /v1/webhook-secrets/:id) before creating another."
        })
      }
      return { ...presentWebhookSecret(secret, now), secret: secret.secret }
    })
})
