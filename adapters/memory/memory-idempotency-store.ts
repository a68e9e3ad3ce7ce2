// IdempotencyStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { IdempotencyStore } from "../../domain/ports/idempotency-store.ts"
import { MemoryDatabase, withRow } from "./memory-database.ts"

const responseKey = (workspaceId: string, key: string): string => JSON.stringify([workspaceId, key])

export const MemoryIdempotencyStoreLive = Layer.effect(
  IdempotencyStore,
  Effect.map(MemoryDatabase, (db) =>
    IdempotencyStore.of({
      get: (workspaceId, key) =>
        db.read((t) => Option.fromNullable(t.responses.get(responseKey(workspaceId, key)))).pipe(
          Effect.withSpan("MemoryIdempotencyStore.get")
        ),
      // The first response stored under a key stands.
      put: (entry) =>
        db.write((t) => {
          const k = responseKey(entry.workspaceId, entry.key)
          return t.responses.has(k) ? t : { ...t, responses: withRow(t.responses, k, entry) }
        }).pipe(Effect.withSpan("MemoryIdempotencyStore.put"))
    }))
)
