// The key a hosted provider is called with: a BYOK workspace's own where it stored one, else the
// server's. Calls made for no workspace (the public voice and art-style samples) use the server's.
import { Effect, Option, type Redacted } from "effect"
import type { WorkFailed } from "../../domain/errors.ts"
import type { ProviderKeysShape } from "../../domain/ports/provider-keys.ts"
import type { Provider } from "../../domain/provider-key.ts"

export const apiKeyFor = (
  keys: ProviderKeysShape,
  provider: Provider,
  workspaceId: string | undefined,
  serverKey: Redacted.Redacted<string>
): Effect.Effect<Redacted.Redacted<string>, WorkFailed> =>
  workspaceId === undefined
    ? Effect.succeed(serverKey)
    : Effect.map(keys.forWorkspace(workspaceId, provider), Option.getOrElse(() => serverKey))
