// What every WebhookSecretStore adapter must do: a workspace's secrets, oldest first, apart from other
// workspaces'; at most so many active at once, even when adds race, expired ones removed by the next add;
// an expiry set only on a secret still active; removal by id within the workspace; the operator's replace-all.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { WebhookSecretStore } from "../../domain/ports/webhook-secret-store.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import type { WebhookSecret } from "../../domain/webhook-secrets.ts"
import { newWebhookSecret } from "../../src/kernel/secrets.ts"
import { aWorkspace } from "./fixtures.ts"

/** A workspace stored first, as the rows' workspace must exist. */
const aStoredWorkspace = Effect.flatMap(WorkspaceStore, (store) => {
  const workspace = aWorkspace()
  return Effect.as(store.insert(workspace), workspace.id)
})

const T0 = Date.parse("2025-01-02T03:04:05.678Z")
const at = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString()

const aSecret = (workspaceId: string, changes: Partial<WebhookSecret> = {}): WebhookSecret => ({
  id: randomUUID(),
  workspaceId,
  secret: newWebhookSecret(),
  createdAt: at(0),
  expiresAt: null,
  ...changes
})

export const webhookSecretStoreContract = (name: string, stores: Layer.Layer<WebhookSecretStore | WorkspaceStore, unknown>): void =>
  layer(stores)(`WebhookSecretStore (${name})`, (it) => {
    it.effect("lists a workspace's secrets oldest first, apart from other workspaces', and gets one by id", () =>
      Effect.gen(function*() {
        const store = yield* WebhookSecretStore
        const [one, two] = [yield* aStoredWorkspace, yield* aStoredWorkspace]
        const newer = aSecret(one, { createdAt: at(60), expiresAt: at(3600) })
        const older = aSecret(one)
        const theirs = aSecret(two)
        expect(yield* store.add(newer, 5)).toBe(true)
        expect(yield* store.add(older, 5)).toBe(true)
        expect(yield* store.add(theirs, 5)).toBe(true)
        expect(yield* store.list(one)).toEqual([older, newer])
        expect(yield* store.list(two)).toEqual([theirs])
        expect(yield* store.list(randomUUID())).toEqual([])
        expect(Option.getOrThrow(yield* store.get(one, newer.id))).toEqual(newer)
        expect(Option.isNone(yield* store.get(two, newer.id))).toBe(true)
        expect(Option.isNone(yield* store.get(one, randomUUID()))).toBe(true)
      }))

    it.effect("refuses an add beyond the active limit; an expired secret does not count, and the next add removes it", () =>
      Effect.gen(function*() {
        const store = yield* WebhookSecretStore
        const workspaceId = yield* aStoredWorkspace
        const other = yield* aStoredWorkspace
        const expiring = aSecret(workspaceId, { expiresAt: at(10) })
        const lasting = aSecret(workspaceId, { createdAt: at(1) })
        expect(yield* store.add(expiring, 2)).toBe(true)
        expect(yield* store.add(lasting, 2)).toBe(true)
        // Another workspace's secrets are its own count.
        expect(yield* store.add(aSecret(other, { createdAt: at(2) }), 2)).toBe(true)
        expect(yield* store.add(aSecret(workspaceId, { createdAt: at(5) }), 2)).toBe(false)
        // The first expires at 10 s: at 10 s it is no longer active.
        const third = aSecret(workspaceId, { createdAt: at(10) })
        expect(yield* store.add(third, 2)).toBe(true)
        expect(yield* store.list(workspaceId)).toEqual([lasting, third])
        expect(yield* store.add(aSecret(workspaceId, { createdAt: at(20) }), 2)).toBe(false)
        expect(yield* store.list(workspaceId)).toEqual([lasting, third])
        expect(yield* store.list(other)).toHaveLength(1)
      }))

    it.effect("keeps the limit when adds race", () =>
      Effect.gen(function*() {
        const store = yield* WebhookSecretStore
        const workspaceId = yield* aStoredWorkspace
        const added = yield* Effect.all(
          Array.from({ length: 8 }, (_, i) => store.add(aSecret(workspaceId, { createdAt: at(i) }), 3)),
          { concurrency: "unbounded" }
        )
        expect(added.filter((a) => a)).toHaveLength(3)
        expect(yield* store.list(workspaceId)).toHaveLength(3)
      }))

    it.effect("sets the expiry of a secret still active, only in its workspace", () =>
      Effect.gen(function*() {
        const store = yield* WebhookSecretStore
        const workspaceId = yield* aStoredWorkspace
        const other = yield* aStoredWorkspace
        const secret = aSecret(workspaceId)
        yield* store.add(secret, 5)
        expect(Option.isNone(yield* store.setExpiry(other, secret.id, at(100), at(1)))).toBe(true)
        expect(Option.isNone(yield* store.setExpiry(workspaceId, randomUUID(), at(100), at(1)))).toBe(true)
        const expiring = { ...secret, expiresAt: at(100) }
        expect(Option.getOrThrow(yield* store.setExpiry(workspaceId, secret.id, at(100), at(1)))).toEqual(expiring)
        expect(yield* store.list(workspaceId)).toEqual([expiring])
        // Still active at 99 s: its expiry can be lifted.
        expect(Option.getOrThrow(yield* store.setExpiry(workspaceId, secret.id, null, at(99)))).toEqual(secret)
        yield* store.setExpiry(workspaceId, secret.id, at(100), at(1))
        // Expired at 100 s: it stays as it is.
        expect(Option.isNone(yield* store.setExpiry(workspaceId, secret.id, null, at(100)))).toBe(true)
        expect(yield* store.list(workspaceId)).toEqual([expiring])
      }))

    it.effect("removes a secret once, and only its workspace's", () =>
      Effect.gen(function*() {
        const store = yield* WebhookSecretStore
        const workspaceId = yield* aStoredWorkspace
        const other = yield* aStoredWorkspace
        const [mine, kept] = [aSecret(workspaceId), aSecret(workspaceId, { createdAt: at(1) })]
        yield* store.add(mine, 5)
        yield* store.add(kept, 5)
        expect(yield* store.remove(other, mine.id)).toBe(false)
        expect(yield* store.remove(workspaceId, mine.id)).toBe(true)
        expect(yield* store.remove(workspaceId, mine.id)).toBe(false)
        expect(yield* store.list(workspaceId)).toEqual([kept])
      }))

    it.effect("replaces all a workspace's secrets at once, or clears them", () =>
      Effect.gen(function*() {
        const store = yield* WebhookSecretStore
        const workspaceId = yield* aStoredWorkspace
        const other = yield* aStoredWorkspace
        yield* store.add(aSecret(workspaceId), 5)
        yield* store.add(aSecret(workspaceId, { createdAt: at(1), expiresAt: at(50) }), 5)
        const theirs = aSecret(other)
        yield* store.add(theirs, 5)
        const only = aSecret(workspaceId, { createdAt: at(2) })
        yield* store.replaceAll(workspaceId, [only])
        expect(yield* store.list(workspaceId)).toEqual([only])
        yield* store.replaceAll(workspaceId, [])
        expect(yield* store.list(workspaceId)).toEqual([])
        expect(yield* store.list(other)).toEqual([theirs])
      }))
  })
