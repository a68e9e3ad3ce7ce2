// The SecretBox in AES-256-GCM under the server's key. A sealed value reads
// `v1.<key id>.<iv>.<ciphertext>.<tag>` (base64url parts): the key id names the server key that sealed it,
// so a value sealed under another key is reported as that, not as tampering. The context is the
// additional authenticated data: a value copied to another record does not open there.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto"
import { Effect } from "effect"
import { SecretBox, type SecretBoxShape, UnreadableSecret } from "../../domain/ports/secret-box.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const SECRETS_KEY_BYTES = 32
const VERSION = "v1"
const IV_BYTES = 12
const TAG_BYTES = 16

/** A short public name of a key: an HMAC of a fixed label, which tells nothing of the key. */
const keyIdOf = (key: Buffer): string =>
  createHmac("sha256", key).update("reelwright secrets key id").digest("hex").slice(0, 8)

export const makeAesGcmSecretBox = (key: Buffer): SecretBoxShape => {
  if (key.length !== SECRETS_KEY_BYTES) throw new Error(`an AES-256 key is ${SECRETS_KEY_BYTES} bytes, not ${key.length}`)
  const keyId = keyIdOf(key)
  return SecretBox.of({
    seal: (plaintext, context) =>
      Effect.sync(() => {
        const iv = randomBytes(IV_BYTES)
        const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES })
        cipher.setAAD(Buffer.from(context, "utf8"))
        const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
        return [VERSION, keyId, iv, ciphertext, cipher.getAuthTag()]
          .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
          .join(".")
      }).pipe(withSpan("AesGcmSecretBox.seal")),
    open: (sealed, context) =>
      Effect.gen(function*() {
        const parts = sealed.split(".")
        const [version, sealedKeyId, iv, ciphertext, tag] = parts
        if (parts.length !== 5 || version !== VERSION || iv === undefined || ciphertext === undefined || tag === undefined) {
          return yield* new UnreadableSecret({ reason: "it is not a value this server sealed" })
        }
        if (sealedKeyId !== keyId) {
          return yield* new UnreadableSecret({
            reason: `it was sealed under another server key (${sealedKeyId}; this server's is ${keyId}), so SECRETS_KEY changed`
          })
        }
        return yield* Effect.try({
          try: () => {
            // The tag length is fixed: GCM would otherwise accept a truncated tag.
            const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES })
            decipher.setAAD(Buffer.from(context, "utf8"))
            decipher.setAuthTag(Buffer.from(tag, "base64url"))
            return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8")
          },
          catch: () => new UnreadableSecret({ reason: "it does not authenticate: it was altered, or sealed for another record" })
        })
      }).pipe(withSpan("AesGcmSecretBox.open"))
  })
}
