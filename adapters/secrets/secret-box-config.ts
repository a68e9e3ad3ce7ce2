// The server's secrets key: SECRETS_KEY (32 bytes as 64 hex digits or base64), else a key generated once
// and kept in DATA_DIR/secrets.key, so a restart still opens what was sealed. Processes that share a
// database must share the key: production refuses to start without SECRETS_KEY (see app-layer).
import { randomBytes, randomUUID } from "node:crypto"
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Cause, Config, ConfigError, Effect, Layer, Option, Redacted } from "effect"
import { SecretBox } from "../../domain/ports/secret-box.ts"
import { makeAesGcmSecretBox, SECRETS_KEY_BYTES } from "./aes-gcm-secret-box.ts"

export const SECRETS_KEY_FILE = "secrets.key"

/** 64 hex digits, or base64 (standard or url-safe) of exactly 32 bytes. */
export const parseSecretsKey = (text: string): Option.Option<Buffer> => {
  const written = text.trim()
  if (/^[0-9a-fA-F]{64}$/.test(written)) return Option.some(Buffer.from(written, "hex"))
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(written)) return Option.none()
  const key = Buffer.from(written, "base64")
  return key.length === SECRETS_KEY_BYTES ? Option.some(key) : Option.none()
}

const isCode = (error: unknown, code: string): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === code

/**
 * The key file's text, written first if there is none. A fresh key is linked into place, which fails
 * when another process got there first: then that process's key stands, and both use it.
 */
const keyFileText = (dataDir: string) =>
  Effect.tryPromise({
    try: async () => {
      const path = join(dataDir, SECRETS_KEY_FILE)
      try {
        return await readFile(path, "utf8")
      } catch (error) {
        if (!isCode(error, "ENOENT")) throw error
      }
      await mkdir(dataDir, { recursive: true })
      const fresh = join(dataDir, `${SECRETS_KEY_FILE}.${randomUUID()}`)
      await writeFile(fresh, `${randomBytes(SECRETS_KEY_BYTES).toString("base64")}\n`, { mode: 0o600 })
      try {
        await link(fresh, path)
      } catch (error) {
        if (!isCode(error, "EEXIST")) throw error
      } finally {
        await rm(fresh, { force: true })
      }
      return await readFile(path, "utf8")
    },
    catch: (error) =>
      ConfigError.SourceUnavailable(
        ["SECRETS_KEY"],
        `SECRETS_KEY is not set, and ${join(dataDir, SECRETS_KEY_FILE)} could not be read or written`,
        Cause.die(error)
      )
  })

export const SecretBoxFromConfig = (dataDir: string) =>
  Layer.effect(
    SecretBox,
    Effect.gen(function*() {
      const configured = yield* Config.option(Config.redacted(Config.nonEmptyString("SECRETS_KEY")))
      const [text, source] = Option.isSome(configured)
        ? [Redacted.value(configured.value), "SECRETS_KEY"]
        : [yield* keyFileText(dataDir), join(dataDir, SECRETS_KEY_FILE)]
      const key = parseSecretsKey(text)
      if (Option.isNone(key)) {
        return yield* Effect.fail(ConfigError.InvalidData(
          ["SECRETS_KEY"],
          `${source} must hold 32 bytes written as 64 hex digits or in base64 (e.g. the output of \`openssl rand -base64 32\`).`
        ))
      }
      return makeAesGcmSecretBox(key.value)
    })
  )
