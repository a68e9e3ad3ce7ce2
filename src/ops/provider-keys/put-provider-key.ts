import { Effect, Schema } from "effect"
import { ProviderKeyStore } from "../../../domain/ports/provider-key-store.ts"
import { SecretBox } from "../../../domain/ports/secret-box.ts"
import { lastFour, Provider, ProviderApiKey, providerKeyContext } from "../../../domain/provider-key.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { presentProviderKey, ProviderKeyObject } from "./parts/provider-key-object.ts"

export const putProviderKey = operation({
  name: "putProviderKey",
  summary: "Store a provider key (BYOK)",
  description:
    "Stores the workspace's own API key for a media provider, replacing the one stored before. It is encrypted at rest " +
    "and never shown again: answers show its last four characters. With BYOK on (the operator switches it per workspace), " +
    "speech, illustrations and transcription by that provider are made with this key. The key is not checked when stored: " +
    "a wrong one makes the media step that uses it fail with the provider's message.",
  path: Schema.Struct({ provider: Provider }),
  payload: Schema.Struct({ apiKey: ProviderApiKey }),
  output: ProviderKeyObject,
  errors: [],
  http: { method: "PUT", path: "/v1/workspace/provider-keys/:provider" },
  access: "workspace",
  tool: null,
  cli: null,
  idempotent: false,
  handle: ({ provider, apiKey }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const stored = {
        workspaceId: workspace.id,
        provider,
        sealedKey: yield* (yield* SecretBox).seal(apiKey, providerKeyContext(workspace.id, provider)),
        lastFour: lastFour(apiKey),
        createdAt: yield* nowIso
      }
      yield* (yield* ProviderKeyStore).put(stored)
      return presentProviderKey(stored)
    })
})
