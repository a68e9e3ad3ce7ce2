import { Schema } from "effect"
import type { StoredProviderKey } from "../../../../domain/ports/provider-key-store.ts"
import { Provider } from "../../../../domain/provider-key.ts"

/** A stored key as it is ever shown: never the key itself. */
export const ProviderKeyObject = Schema.Struct({
  provider: Provider,
  last4: Schema.String.annotations({ description: "The key's last four characters, to tell keys apart." }),
  createdAt: Schema.String.annotations({ description: "When it was stored: ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "ProviderKey", description: "A provider key the workspace stored (BYOK), masked." })
export type ProviderKeyObject = typeof ProviderKeyObject.Type

export const presentProviderKey = (key: StoredProviderKey): ProviderKeyObject => ({
  provider: key.provider,
  last4: key.lastFour,
  createdAt: key.createdAt
})
