// AES-256-GCM sealing with the server's key, and where that key comes from: SECRETS_KEY, or a key
// generated once under DATA_DIR that later starts read back.
import { randomBytes } from "node:crypto"
import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import { makeAesGcmSecretBox } from "../../adapters/secrets/aes-gcm-secret-box.ts"
import { parseSecretsKey, SECRETS_KEY_FILE, SecretBoxFromConfig } from "../../adapters/secrets/secret-box-config.ts"
import { SecretBox } from "../../domain/ports/secret-box.ts"

const SECRET = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"

let dir = ""
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "secret-box-"))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

const boxFromConfig = (dataDir: string, settings: ReadonlyArray<readonly [string, string]> = []) =>
  Effect.provide(SecretBox, SecretBoxFromConfig(dataDir)).pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(settings))))

describe("AES-256-GCM secret box", () => {
  const box = makeAesGcmSecretBox(randomBytes(32))

  it.effect("opens what it sealed, and the sealed text shows nothing of the secret", () =>
    Effect.gen(function*() {
      const sealed = yield* box.seal(SECRET, "provider-key:w1:openai")
      expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/)
      expect(sealed).not.toContain(SECRET.slice(0, 10))
      expect(sealed).not.toContain(Buffer.from(SECRET).toString("base64url").slice(0, 10))
      expect(yield* box.open(sealed, "provider-key:w1:openai")).toBe(SECRET)
      // A fresh IV every time: the same secret never seals to the same text.
      expect(yield* box.seal(SECRET, "provider-key:w1:openai")).not.toBe(sealed)
    }))

  it.effect("opens only in its context, under its key, and unaltered", () =>
    Effect.gen(function*() {
      const sealed = yield* box.seal(SECRET, "provider-key:w1:openai")
      const elsewhere = yield* Effect.flip(box.open(sealed, "provider-key:w2:openai"))
      expect(elsewhere.reason).toContain("does not authenticate")
      const otherKey = yield* Effect.flip(makeAesGcmSecretBox(randomBytes(32)).open(sealed, "provider-key:w1:openai"))
      expect(otherKey.reason).toContain("sealed under another server key")
      const parts = sealed.split(".")
      const ciphertext = Buffer.from(parts[3]!, "base64url")
      ciphertext[0] = ciphertext[0]! ^ 1
      const altered = [...parts.slice(0, 3), ciphertext.toString("base64url"), parts[4]].join(".")
      expect((yield* Effect.flip(box.open(altered, "provider-key:w1:openai"))).reason).toContain("does not authenticate")
      const shortTag = [...parts.slice(0, 4), Buffer.from(parts[4]!, "base64url").subarray(0, 4).toString("base64url")].join(".")
      expect((yield* Effect.flip(box.open(shortTag, "provider-key:w1:openai"))).reason).toContain("does not authenticate")
      expect((yield* Effect.flip(box.open("sk-plain", "provider-key:w1:openai"))).reason).toContain("not a value this server sealed")
    }))
})

describe("the server's secrets key", () => {
  it("is 32 bytes written in hex or base64", () => {
    const key = randomBytes(32)
    expect(parseSecretsKey(key.toString("hex"))).toEqual(Option.some(key))
    expect(parseSecretsKey(`${key.toString("base64")}\n`)).toEqual(Option.some(key))
    expect(parseSecretsKey(key.toString("base64url"))).toEqual(Option.some(key))
    expect(parseSecretsKey(randomBytes(16).toString("hex"))).toEqual(Option.none())
    expect(parseSecretsKey(randomBytes(24).toString("base64"))).toEqual(Option.none())
    expect(parseSecretsKey("correct horse battery staple")).toEqual(Option.none())
  })

  it.effect("without SECRETS_KEY is generated once under DATA_DIR, private, and read back at the next start", () =>
    Effect.gen(function*() {
      const dataDir = join(dir, "generated")
      const first = yield* boxFromConfig(dataDir)
      const sealed = yield* first.seal(SECRET, "c")
      const file = join(dataDir, SECRETS_KEY_FILE)
      expect(((yield* Effect.promise(() => stat(file))).mode & 0o777).toString(8)).toBe("600")
      expect(Option.isSome(parseSecretsKey(yield* Effect.promise(() => readFile(file, "utf8"))))).toBe(true)
      const restarted = yield* boxFromConfig(dataDir)
      expect(yield* restarted.open(sealed, "c")).toBe(SECRET)
      expect(yield* Effect.promise(() => readdir(dataDir))).toEqual([SECRETS_KEY_FILE])
    }))

  it.effect("is the same for processes starting at once on one DATA_DIR", () =>
    Effect.gen(function*() {
      const dataDir = join(dir, "racing")
      const boxes = yield* Effect.all(Array.from({ length: 8 }, () => boxFromConfig(dataDir)), { concurrency: "unbounded" })
      const sealed = yield* boxes[0]!.seal(SECRET, "c")
      for (const box of boxes) expect(yield* box.open(sealed, "c")).toBe(SECRET)
      expect(yield* Effect.promise(() => readdir(dataDir))).toEqual([SECRETS_KEY_FILE])
    }))

  it.effect("is SECRETS_KEY when set: no file is written, and the same value opens what another process sealed", () =>
    Effect.gen(function*() {
      const key = randomBytes(32).toString("base64")
      const dataDir = join(dir, "configured")
      const sealed = yield* (yield* boxFromConfig(dataDir, [["SECRETS_KEY", key]])).seal(SECRET, "c")
      const other = yield* boxFromConfig(join(dir, "configured-elsewhere"), [["SECRETS_KEY", key]])
      expect(yield* other.open(sealed, "c")).toBe(SECRET)
      expect(yield* Effect.promise(() => readdir(dir))).not.toContain("configured")
      const invalid = yield* Effect.flip(boxFromConfig(dataDir, [["SECRETS_KEY", "too-short"]]))
      expect(String(invalid)).toContain("SECRETS_KEY must hold 32 bytes")
    }))
})
