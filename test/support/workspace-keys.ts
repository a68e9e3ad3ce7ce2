// Provider keys for tests of one hosted engine: `own` maps a workspace id to the key it brought (as BYOK
// with a stored key gives it); every other call goes out with the server's key.
import { Effect, Layer, Option, Redacted } from "effect"
import { ProviderKeys, type ProviderKeysShape } from "../../domain/ports/provider-keys.ts"

export const workspaceKeys = (own: Readonly<Record<string, string>> = {}): ProviderKeysShape => ({
  forWorkspace: (workspaceId) => Effect.succeed(Option.map(Option.fromNullable(own[workspaceId]), (key) => Redacted.make(key)))
})

export const WorkspaceKeysLive = (own: Readonly<Record<string, string>> = {}) => Layer.succeed(ProviderKeys, workspaceKeys(own))
