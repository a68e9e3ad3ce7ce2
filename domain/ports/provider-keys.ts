import { Context, type Effect, type Option, type Redacted } from "effect"
import type { WorkFailed } from "../errors.ts"
import type { Provider } from "../provider-key.ts"

/** The keys hosted media providers are called with on a workspace's behalf. */
export interface ProviderKeysShape {
  /**
   * The workspace's own key when BYOK is on and it stored one for the provider; none = the server's
   * key applies. A stored key that cannot be decrypted fails the work with what to do.
   */
  readonly forWorkspace: (workspaceId: string, provider: Provider) => Effect.Effect<Option.Option<Redacted.Redacted<string>>, WorkFailed>
}
export class ProviderKeys extends Context.Tag("ProviderKeys")<ProviderKeys, ProviderKeysShape>() {}
