import { Context, type Effect, type Option } from "effect"
import type { Provider } from "../provider-key.ts"

/** A workspace's key for one provider, as stored: sealed, never in the clear. */
export interface StoredProviderKey {
  readonly workspaceId: string
  readonly provider: Provider
  /** The key sealed by the SecretBox (see providerKeyContext). */
  readonly sealedKey: string
  /** Its last four characters, to tell keys apart. */
  readonly lastFour: string
  readonly createdAt: string
}

export interface ProviderKeyStoreShape {
  /** Stores the workspace's key for its provider, replacing the one stored before. */
  readonly put: (key: StoredProviderKey) => Effect.Effect<void>
  readonly get: (workspaceId: string, provider: Provider) => Effect.Effect<Option.Option<StoredProviderKey>>
  /** The workspace's keys, by provider name. */
  readonly list: (workspaceId: string) => Effect.Effect<ReadonlyArray<StoredProviderKey>>
  /** Whether there was a key to remove. */
  readonly remove: (workspaceId: string, provider: Provider) => Effect.Effect<boolean>
}
export class ProviderKeyStore extends Context.Tag("ProviderKeyStore")<ProviderKeyStore, ProviderKeyStoreShape>() {}
