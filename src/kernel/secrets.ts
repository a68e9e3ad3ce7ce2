// Random credentials and their stored form. Tokens are prefixed so a leaked one is recognisable,
// and stored only as SHA-256 hashes.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto"
import { WEBHOOK_SECRET_PREFIX } from "../../domain/webhook-secrets.ts"

export { WEBHOOK_SECRET_PREFIX }

export const newId = (): string => randomUUID()

export const randomToken = (prefix: string, bytes = 24): string => `${prefix}${randomBytes(bytes).toString("base64url")}`

export const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex")

export const API_TOKEN_PREFIX = "rw_"

export const newApiToken = (): string => randomToken(API_TOKEN_PREFIX)

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64")}`

/** OAuth credentials, each with its own prefix so a leaked one says what it is. */
export const OAUTH_PREFIX = {
  client: "rwc_",
  code: "rwac_",
  access: "rwat_",
  refresh: "rwrt_",
  session: "rwss_"
} as const

export const newOAuthSecret = (kind: keyof typeof OAUTH_PREFIX): string => randomToken(OAUTH_PREFIX[kind], 32)

/** PKCE S256 (RFC 7636 §4.2): BASE64URL(SHA256(verifier)). */
export const pkceS256 = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url")

/** Compares two secrets in constant time (for equal lengths). */
export const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}
