// ProviderKeyStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { ProviderKeyStore } from "../../domain/ports/provider-key-store.ts"
import type { Provider } from "../../domain/provider-key.ts"
import { byCodeUnits, MemoryDatabase } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const providerKeyRow = (workspaceId: string, provider: Provider): string => `${workspaceId}/${provider}`

export const MemoryProviderKeyStoreLive = Layer.effect(
  ProviderKeyStore,
  Effect.map(MemoryDatabase, (db) =>
    ProviderKeyStore.of({
      put: (key) =>
        db.write((t) => ({
          ...t,
          providerKeys: new Map(t.providerKeys).set(providerKeyRow(key.workspaceId, key.provider), key)
        })).pipe(withSpan("MemoryProviderKeyStore.put")),
      get: (workspaceId, provider) =>
        db.read((t) => Option.fromNullable(t.providerKeys.get(providerKeyRow(workspaceId, provider)))).pipe(
          withSpan("MemoryProviderKeyStore.get")
        ),
      list: (workspaceId) =>
        db.read((t) =>
          [...t.providerKeys.values()]
            .filter((key) => key.workspaceId === workspaceId)
            .sort((a, b) => byCodeUnits(a.provider, b.provider))
        ).pipe(withSpan("MemoryProviderKeyStore.list")),
      remove: (workspaceId, provider) =>
        db.modify((t) => {
          const row = providerKeyRow(workspaceId, provider)
          if (!t.providerKeys.has(row)) return [false, t] as const
          const providerKeys = new Map(t.providerKeys)
          providerKeys.delete(row)
          return [true, { ...t, providerKeys }] as const
        }).pipe(withSpan("MemoryProviderKeyStore.remove"))
    }))
)
