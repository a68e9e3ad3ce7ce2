import { Effect, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { ProviderKeyStore } from "../../../domain/ports/provider-key-store.ts"
import { Provider } from "../../../domain/provider-key.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"

export const deleteProviderKey = operation({
  name: "deleteProviderKey",
  summary: "Delete a stored provider key (BYOK)",
  description:
    "Removes the workspace's key for the provider. BYOK stays as it is: that provider's calls then use the server's key.",
  path: Schema.Struct({ provider: Provider }),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    provider: Provider,
    deleted: Schema.Literal(true).annotations({ description: "Always true." })
  }),
  errors: ["NotFound"],
  http: { method: "DELETE", path: "/v1/workspace/provider-keys/:provider" },
  access: "workspace",
  tool: null,
  cli: "provider-key:delete",
  idempotent: false,
  handle: ({ provider }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      if (!(yield* (yield* ProviderKeyStore).remove(workspace.id, provider))) {
        return yield* new NotFound({ resource: "provider key", id: provider })
      }
      return { provider, deleted: true as const }
    })
})
