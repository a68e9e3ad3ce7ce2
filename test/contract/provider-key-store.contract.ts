// What every ProviderKeyStore adapter must do: one key per workspace and provider, kept sealed. The
// suite seals with the real AES-256-GCM box and reads the adapter's stored rows to check that no key
// is there in the clear.
import { randomBytes, randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { makeAesGcmSecretBox } from "../../adapters/secrets/aes-gcm-secret-box.ts"
import { ProviderKeyStore, type StoredProviderKey } from "../../domain/ports/provider-key-store.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { lastFour, type Provider, providerKeyContext } from "../../domain/provider-key.ts"
import { aWorkspace } from "./fixtures.ts"

const box = makeAesGcmSecretBox(randomBytes(32))

/** A workspace stored first, as the rows' workspace must exist. */
const aStoredWorkspace = Effect.flatMap(WorkspaceStore, (store) => {
  const workspace = aWorkspace()
  return Effect.as(store.insert(workspace), workspace.id)
})

const sealedKey = (workspaceId: string, provider: Provider, apiKey: string, createdAt = "2025-01-02T03:04:05.678Z") =>
  Effect.map(box.seal(apiKey, providerKeyContext(workspaceId, provider)), (sealed): StoredProviderKey => ({
    workspaceId,
    provider,
    sealedKey: sealed,
    lastFour: lastFour(apiKey),
    createdAt
  }))

/** `storedRows`: everything the adapter keeps for provider keys, as it keeps it. */
export const providerKeyStoreContract = <R>(
  name: string,
  stores: Layer.Layer<ProviderKeyStore | WorkspaceStore | R, unknown>,
  storedRows: Effect.Effect<unknown, unknown, R>
): void =>
  layer(stores)(`ProviderKeyStore (${name})`, (it) => {
    it.effect("keeps a key sealed: the stored row does not hold it, and it opens again", () =>
      Effect.gen(function*() {
        const store = yield* ProviderKeyStore
        const workspaceId = yield* aStoredWorkspace
        const apiKey = `sk-proj-${randomBytes(24).toString("base64url")}`
        const key = yield* sealedKey(workspaceId, "openai", apiKey)
        yield* store.put(key)
        const stored = JSON.stringify(yield* storedRows)
        expect(stored).toContain(key.sealedKey)
        expect(stored).not.toContain(apiKey)
        expect(stored).not.toContain(apiKey.slice(0, 12))
        const read = Option.getOrThrow(yield* store.get(workspaceId, "openai"))
        expect(read).toEqual(key)
        expect(yield* box.open(read.sealedKey, providerKeyContext(workspaceId, "openai"))).toBe(apiKey)
        // Bound to its row: the same sealed bytes do not open as another workspace's key.
        const elsewhere = yield* Effect.flip(box.open(read.sealedKey, providerKeyContext(randomUUID(), "openai")))
        expect(elsewhere._tag).toBe("UnreadableSecret")
      }))

    it.effect("holds one key per provider, replaced by the next, listed by provider, per workspace", () =>
      Effect.gen(function*() {
        const store = yield* ProviderKeyStore
        const workspaceId = yield* aStoredWorkspace
        const other = yield* aStoredWorkspace
        yield* store.put(yield* sealedKey(workspaceId, "openai", "sk-first-0001"))
        const elevenLabs = yield* sealedKey(workspaceId, "elevenlabs", "xi-key-0002")
        yield* store.put(elevenLabs)
        const replaced = yield* sealedKey(workspaceId, "openai", "sk-second-0003", "2025-01-03T00:00:00.000Z")
        yield* store.put(replaced)
        yield* store.put(yield* sealedKey(other, "openai", "sk-other-0004"))
        expect(yield* store.list(workspaceId)).toEqual([elevenLabs, replaced])
        expect((yield* store.list(other)).map((k) => k.lastFour)).toEqual(["0004"])
        expect(yield* store.list(randomUUID())).toEqual([])
        expect(Option.isNone(yield* store.get(other, "elevenlabs"))).toBe(true)
      }))

    it.effect("removes a key once, and only that workspace's", () =>
      Effect.gen(function*() {
        const store = yield* ProviderKeyStore
        const workspaceId = yield* aStoredWorkspace
        const other = yield* aStoredWorkspace
        yield* store.put(yield* sealedKey(workspaceId, "elevenlabs", "xi-key-0005"))
        yield* store.put(yield* sealedKey(other, "elevenlabs", "xi-key-0006"))
        expect(yield* store.remove(workspaceId, "openai")).toBe(false)
        expect(yield* store.remove(workspaceId, "elevenlabs")).toBe(true)
        expect(yield* store.remove(workspaceId, "elevenlabs")).toBe(false)
        expect(Option.isNone(yield* store.get(workspaceId, "elevenlabs"))).toBe(true)
        expect(yield* store.list(workspaceId)).toEqual([])
        expect((yield* store.list(other)).map((k) => k.lastFour)).toEqual(["0006"])
      }))
  })
