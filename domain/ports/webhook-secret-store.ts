import { Context, type Effect, type Option } from "effect"
import type { WebhookSecret } from "../webhook-secrets.ts"

export interface WebhookSecretStoreShape {
  /**
   * Adds `secret` unless its workspace already holds `maxActive` secrets active at `secret.createdAt`;
   * the workspace's secrets expired by then are removed first (they sign nothing again). Concurrent adds
   * of one workspace are serialized, so the limit holds. Whether it was added.
   */
  readonly add: (secret: WebhookSecret, maxActive: number) => Effect.Effect<boolean>
  /** The workspace's secrets, expired ones included, oldest first. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<WebhookSecret>>
  readonly get: (workspaceId: string, id: string) => Effect.Effect<Option.Option<WebhookSecret>>
  /**
   * Sets the expiry of a secret still active at `at` (null: none), and answers it as changed; none when
   * the workspace has no such secret, or it had expired by `at`.
   */
  readonly setExpiry: (
    workspaceId: string,
    id: string,
    expiresAt: string | null,
    at: string
  ) => Effect.Effect<Option.Option<WebhookSecret>>
  /** Whether there was such a secret to remove. */
  readonly remove: (workspaceId: string, id: string) => Effect.Effect<boolean>
  /** Replaces all the workspace's secrets by `secrets` (none: deliveries go unsigned), in one step. */
  readonly replaceAll: (workspaceId: string, secrets: ReadonlyArray<WebhookSecret>) => Effect.Effect<void>
}
export class WebhookSecretStore extends Context.Tag("WebhookSecretStore")<WebhookSecretStore, WebhookSecretStoreShape>() {}
