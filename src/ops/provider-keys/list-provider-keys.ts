import { Effect, Schema } from "effect"
import { ProviderKeyStore } from "../../../domain/ports/provider-key-store.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { presentProviderKey, ProviderKeyObject } from "./parts/provider-key-object.ts"

export const listProviderKeys = operation({
  name: "listProviderKeys",
  summary: "List the stored provider keys (BYOK)",
  description: "The workspace's stored provider keys by provider name, each shown by its last four characters only.",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    data: Schema.Array(ProviderKeyObject).annotations({ description: "At most one key per provider." })
  }).annotations({ identifier: "ProviderKeyList" }),
  errors: [],
  http: { method: "GET", path: "/v1/workspace/provider-keys" },
  access: "workspace",
  tool: null,
  cli: "provider-key:list",
  idempotent: false,
  handle: () =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      return { data: (yield* (yield* ProviderKeyStore).list(workspace.id)).map(presentProviderKey) }
    })
})
