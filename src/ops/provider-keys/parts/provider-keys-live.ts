// The keys hosted providers are called with: a BYOK workspace's own, opened from the store, where it
// stored one; otherwise none, and the engine uses the server's.
import { Effect, Layer, Option, Redacted } from "effect"
import { WorkFailed } from "../../../../domain/errors.ts"
import { ProviderKeyStore } from "../../../../domain/ports/provider-key-store.ts"
import { ProviderKeys } from "../../../../domain/ports/provider-keys.ts"
import { SecretBox } from "../../../../domain/ports/secret-box.ts"
import { WorkspaceStore } from "../../../../domain/ports/workspace-store.ts"
import { PROVIDER_NAMES, providerKeyContext } from "../../../../domain/provider-key.ts"
import { withSpan } from "../../../kernel/spans.ts"

export const ProviderKeysLive = Layer.effect(
  ProviderKeys,
  Effect.gen(function*() {
    const workspaces = yield* WorkspaceStore
    const keys = yield* ProviderKeyStore
    const box = yield* SecretBox
    return ProviderKeys.of({
      forWorkspace: (workspaceId, provider) =>
        Effect.gen(function*() {
          if (!Option.exists(yield* workspaces.get(workspaceId), (w) => w.byok)) return Option.none()
          const stored = yield* keys.get(workspaceId, provider)
          if (Option.isNone(stored)) return Option.none()
          const apiKey = yield* box.open(stored.value.sealedKey, providerKeyContext(workspaceId, provider)).pipe(
            Effect.mapError((e) =>
              new WorkFailed({
                message: `The workspace's ${PROVIDER_NAMES[provider]} key could not be decrypted: ${e.reason}. ` +
                  `Store the key again (PUT /v1/workspace/provider-keys/${provider}), then retry.`
              })
            )
          )
          return Option.some(Redacted.make(apiKey))
        }).pipe(withSpan("ProviderKeys.forWorkspace", { attributes: { workspaceId, provider } }))
    })
  })
)
