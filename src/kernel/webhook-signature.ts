import { createHmac } from "node:crypto"
import { WEBHOOK_SECRET_PREFIX } from "./secrets.ts"

/** Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the decoded secret. */
export const signWebhook = (secret: string, id: string, timestampSeconds: number, body: string): string => {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, "base64")
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`
}

/**
 * The `webhook-signature` header for a message signed with each of `secrets` (during a rotation, several):
 * their signatures separated by spaces, as Standard Webhooks lists them; a receiver accepts the message
 * when any one verifies.
 */
export const webhookSignatures = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestampSeconds: number,
  body: string
): string => secrets.map((secret) => signWebhook(secret, id, timestampSeconds, body)).join(" ")
