// PATCH /v1/webhook-secrets/:id, tool update_webhook_secret: sets when a secret stops signing (the second
// half of a rotation: the old secret keeps signing until the receiver has the new one).
import { Clock, Effect, Option, Schema } from "effect"
import { Conflict, InvalidInput, NotFound } from "../../../domain/errors.ts"
import { WebhookSecretStore } from "../../../domain/ports/webhook-secret-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import {
  ExpiresInSeconds,
  ExpiryInstant,
  presentWebhookSecret,
  requestedExpiry,
  WebhookSecretId,
  WebhookSecretObject
} from "./parts/webhook-secret-object.ts"

export const updateWebhookSecret = operation({
  name: "updateWebhookSecret",
  summary: "Set when a webhook signing secret expires",
  description:
    "Sets the expiry of an active secret: `expiresInSeconds` from now, or `expiresAt` (a time ahead; null: never). " +
    "Deliveries are signed with it until then, so a rotation can end on its own: create the new secret, then give " +
    "the old one an expiry that leaves the receiver time to switch. A secret that has expired is a 409: create a new one.",
  path: Schema.Struct({ id: WebhookSecretId }),
  payload: Schema.Struct({
    expiresInSeconds: Schema.optional(ExpiresInSeconds),
    expiresAt: Schema.optional(Schema.NullOr(ExpiryInstant).annotations({
      description: "When the secret stops signing: an ISO 8601 date and time with its offset, in the future; null: never."
    }))
  }),
  output: WebhookSecretObject,
  errors: ["InvalidInput", "NotFound", "Conflict"],
  http: { method: "PATCH", path: "/v1/webhook-secrets/:id" },
  access: "workspace",
  tool: "update_webhook_secret",
  cli: "webhook-secret:update",
  idempotent: false,
  handle: ({ id, expiresInSeconds, expiresAt }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const now = yield* Clock.currentTimeMillis
      const expiry = yield* requestedExpiry({ expiresInSeconds, expiresAt }, now)
      if (expiry === undefined) {
        return yield* new InvalidInput({ field: "expiresAt", message: "give expiresAt (null: never) or expiresInSeconds" })
      }
      const store = yield* WebhookSecretStore
      const changed = yield* store.setExpiry(workspace.id, id, expiry, new Date(now).toISOString())
      if (Option.isSome(changed)) return presentWebhookSecret(changed.value, now)
      if (Option.isNone(yield* store.get(workspace.id, id))) return yield* new NotFound({ resource: "webhook secret", id })
      return yield* new Conflict({ message: `The webhook secret ${id} has expired and signs nothing again: create a new one.` })
    })
})
