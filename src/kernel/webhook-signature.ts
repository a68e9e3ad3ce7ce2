import { createHmac } from "node:crypto"
import { WEBHOOK_SECRET_PREFIX } from "./secrets.ts"

/** Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 over `id.timestamp.body` with the decoded secret. */
export const signWebhook = (secret: string, id: string, timestampSeconds: number, body: string): string => {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, "base64")
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`
}
