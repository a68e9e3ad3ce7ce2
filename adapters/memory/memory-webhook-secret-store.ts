// WebhookSecretStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { WebhookSecretStore } from "../../domain/ports/webhook-secret-store.ts"
import { isActiveAt, type WebhookSecret } from "../../domain/webhook-secrets.ts"
import { byCodeUnits, MemoryDatabase, type Tables, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** Oldest first; ties by id, as PostgreSQL orders them. */
const oldestFirst = (a: WebhookSecret, b: WebhookSecret): number =>
  Date.parse(a.createdAt) - Date.parse(b.createdAt) || byCodeUnits(a.id, b.id)

const secretsOf = (t: Tables, workspaceId: string): Array<WebhookSecret> =>
  [...t.webhookSecrets.values()].filter((s) => s.workspaceId === workspaceId).sort(oldestFirst)

const without = (t: Tables, remove: (secret: WebhookSecret) => boolean): Tables => ({
  ...t,
  webhookSecrets: new Map([...t.webhookSecrets].filter(([, secret]) => !remove(secret)))
})

export const MemoryWebhookSecretStoreLive = Layer.effect(
  WebhookSecretStore,
  Effect.map(MemoryDatabase, (db) =>
    WebhookSecretStore.of({
      add: (secret, maxActive) =>
        db.modify((t) => {
          const at = Date.parse(secret.createdAt)
          const kept = without(t, (s) => s.workspaceId === secret.workspaceId && !isActiveAt(s, at))
          if (secretsOf(kept, secret.workspaceId).length >= maxActive) return [false, kept] as const
          return [true, { ...kept, webhookSecrets: withRow(kept.webhookSecrets, secret.id, secret) }] as const
        }).pipe(withSpan("MemoryWebhookSecretStore.add")),
      list: (workspaceId) =>
        db.read((t) => secretsOf(t, workspaceId)).pipe(withSpan("MemoryWebhookSecretStore.list")),
      get: (workspaceId, id) =>
        db.read((t) => Option.fromNullable(t.webhookSecrets.get(id)).pipe(Option.filter((s) => s.workspaceId === workspaceId)))
          .pipe(withSpan("MemoryWebhookSecretStore.get")),
      setExpiry: (workspaceId, id, expiresAt, at) =>
        db.modify((t) => {
          const found = t.webhookSecrets.get(id)
          if (found === undefined || found.workspaceId !== workspaceId || !isActiveAt(found, Date.parse(at))) {
            return [Option.none(), t] as const
          }
          const changed = { ...found, expiresAt }
          return [Option.some(changed), { ...t, webhookSecrets: withRow(t.webhookSecrets, id, changed) }] as const
        }).pipe(withSpan("MemoryWebhookSecretStore.setExpiry")),
      remove: (workspaceId, id) =>
        db.modify((t) => {
          const found = t.webhookSecrets.get(id)
          if (found === undefined || found.workspaceId !== workspaceId) return [false, t] as const
          return [true, without(t, (s) => s.id === id)] as const
        }).pipe(withSpan("MemoryWebhookSecretStore.remove")),
      replaceAll: (workspaceId, secrets) =>
        db.write((t) => {
          const cleared = without(t, (s) => s.workspaceId === workspaceId)
          return { ...cleared, webhookSecrets: new Map([...cleared.webhookSecrets, ...secrets.map((s) => [s.id, s] as const)]) }
        }).pipe(withSpan("MemoryWebhookSecretStore.replaceAll"))
    }))
)
