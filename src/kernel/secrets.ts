// Random credentials and their stored form. Tokens are prefixed so a leaked one is recognisable,
// and stored only as SHA-256 hashes.
import { createHash, randomBytes, randomUUID } from "node:crypto"

export const newId = (): string => randomUUID()

export const randomToken = (prefix: string, bytes = 24): string => `${prefix}${randomBytes(bytes).toString("base64url")}`

export const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex")

export const API_TOKEN_PREFIX = "rw_"
export const WEBHOOK_SECRET_PREFIX = "whsec_"

export const newApiToken = (): string => randomToken(API_TOKEN_PREFIX)

/** Standard Webhooks secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64")}`
