import { Effect, Option, Schema } from "effect"
import { Conflict, NotFound } from "../../../domain/errors.ts"
import { ProviderKeyStore } from "../../../domain/ports/provider-key-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { Provider } from "../../../domain/provider-key.ts"
import { operation } from "../../kernel/operation.ts"
import { BYOK_RENDER_PRICE_TEXT } from "../../../domain/pricing.ts"

export const setByok = operation({
  name: "setByok",
  summary: "Switch BYOK on or off (admin)",
  description:
    `With BYOK on, the workspace renders on any plan, each render is charged from its cash balance (${BYOK_RENDER_PRICE_TEXT}) ` +
    "instead of credits, and media providers for which it stored a key are called with that key. Switching on " +
    "needs at least one stored provider key (409 otherwise); switching off always works.",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace to switch." }) }),
  payload: Schema.Struct({
    enabled: Schema.Boolean.annotations({ description: "true: BYOK on; false: off." })
  }),
  output: Schema.Struct({
    workspaceId: Schema.String.annotations({ description: "The workspace." }),
    byok: Schema.Boolean.annotations({ description: "Whether BYOK is now on." }),
    providers: Schema.Array(Provider).annotations({ description: "The providers it stored keys for." })
  }),
  errors: ["NotFound", "Conflict"],
  http: { method: "POST", path: "/admin/workspaces/:workspaceId/byok" },
  access: "admin",
  tool: null,
  cli: "byok:set",
  idempotent: false,
  handle: ({ enabled, workspaceId }) =>
    Effect.gen(function*() {
      const store = yield* WorkspaceStore
      const workspace = yield* store.get(workspaceId)
      if (Option.isNone(workspace)) return yield* new NotFound({ resource: "workspace", id: workspaceId })
      const providers = (yield* (yield* ProviderKeyStore).list(workspaceId)).map((key) => key.provider)
      if (enabled && providers.length === 0) {
        return yield* new Conflict({
          message: "BYOK needs at least one stored provider key: the workspace stores one with " +
            "PUT /v1/workspace/provider-keys/:provider first."
        })
      }
      yield* store.update({ ...workspace.value, byok: enabled })
      return { workspaceId, byok: enabled, providers }
    })
})
