// What every IdempotencyStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { IdempotencyStore, type StoredResponse } from "../../domain/ports/idempotency-store.ts"

export const idempotencyStoreContract = (name: string, stores: Layer.Layer<IdempotencyStore, unknown>): void =>
  layer(stores)(`IdempotencyStore (${name})`, (it) => {
    it.effect("keeps a response per workspace and key", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const entry: StoredResponse = {
          workspaceId: randomUUID(),
          key: "create-1",
          fingerprint: "ab".repeat(32),
          response: { id: randomUUID(), status: "processing", render: false, tags: ["a", 1, null] },
          createdAt: "2025-01-02T03:04:05.678Z"
        }
        expect(Option.isNone(yield* store.get(entry.workspaceId, entry.key))).toBe(true)
        yield* store.put(entry)
        expect(Option.getOrThrow(yield* store.get(entry.workspaceId, entry.key))).toEqual(entry)
        expect(Option.isNone(yield* store.get(randomUUID(), entry.key))).toBe(true)
        expect(Option.isNone(yield* store.get(entry.workspaceId, "create-2"))).toBe(true)
      }))
  })
