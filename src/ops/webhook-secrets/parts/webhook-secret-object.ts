// A webhook signing secret as answers show it (by its prefix: the whole secret only once, when created),
// and the expiry a request may ask for.
import { Effect, Schema } from "effect"
import { InvalidInput } from "../../../../domain/errors.ts"
import {
  isActiveAt,
  MAX_WEBHOOK_SECRET_LIFETIME_SECONDS,
  secretPrefix,
  type WebhookSecret
} from "../../../../domain/webhook-secrets.ts"

export const WebhookSecretId = Schema.String.annotations({ description: "The secret's id, as its create or the list answered it." })

const Timestamp = Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })

export const WebhookSecretObject = Schema.Struct({
  id: WebhookSecretId,
  prefix: Schema.String.annotations({
    description: "`whsec_` and the secret's first four characters, to tell secrets apart (the whole secret is shown only when created)."
  }),
  createdAt: Timestamp,
  expiresAt: Schema.NullOr(Timestamp).annotations({ description: "When it stops signing deliveries; null = until deleted." }),
  active: Schema.Boolean.annotations({ description: "Whether deliveries sent now are signed with it (it has not expired)." })
}).annotations({ identifier: "WebhookSecret", description: "A webhook signing secret of the workspace, masked." })
export type WebhookSecretObject = typeof WebhookSecretObject.Type

export const presentWebhookSecret = (secret: WebhookSecret, nowMs: number): WebhookSecretObject => ({
  id: secret.id,
  prefix: secretPrefix(secret.secret),
  createdAt: secret.createdAt,
  expiresAt: secret.expiresAt,
  active: isActiveAt(secret, nowMs)
})

/** An instant with its offset, as ISO 8601 writes it (`2025-07-01T12:00:00Z`). */
export const ExpiryInstant = Schema.String.pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/, {
    message: () => "expiresAt is an ISO 8601 date and time with its offset, e.g. 2025-07-01T12:00:00Z"
  }),
  Schema.filter((text) => !Number.isNaN(Date.parse(text)), { message: () => "expiresAt is not a date that exists" })
).annotations({ description: "When the secret stops signing: an ISO 8601 date and time with its offset, in the future." })

export const ExpiresInSeconds = Schema.Int.pipe(Schema.between(1, MAX_WEBHOOK_SECRET_LIFETIME_SECONDS)).annotations({
  description: `The secret stops signing this many seconds from now (1 to ${MAX_WEBHOOK_SECRET_LIFETIME_SECONDS}, ten years).`
})

/**
 * The expiry a request asked for, as an ISO timestamp: `expiresInSeconds` from now, or `expiresAt`, which
 * must lie ahead (null, where allowed: none). Undefined when it asked for neither; both is an error.
 */
export const requestedExpiry = (
  input: { readonly expiresAt?: string | null | undefined; readonly expiresInSeconds?: number | undefined },
  nowMs: number
): Effect.Effect<string | null | undefined, InvalidInput> => {
  if (input.expiresAt !== undefined && input.expiresInSeconds !== undefined) {
    return Effect.fail(new InvalidInput({ field: "expiresAt", message: "give expiresAt or expiresInSeconds, not both" }))
  }
  if (input.expiresInSeconds !== undefined) return Effect.succeed(new Date(nowMs + input.expiresInSeconds * 1000).toISOString())
  if (input.expiresAt === undefined || input.expiresAt === null) return Effect.succeed(input.expiresAt)
  const at = Date.parse(input.expiresAt)
  if (at <= nowMs) return Effect.fail(new InvalidInput({ field: "expiresAt", message: `${input.expiresAt} has passed; give a time ahead` }))
  if (at > nowMs + MAX_WEBHOOK_SECRET_LIFETIME_SECONDS * 1000) {
    return Effect.fail(new InvalidInput({ field: "expiresAt", message: "a secret expires at most ten years ahead" }))
  }
  return Effect.succeed(new Date(at).toISOString())
}
