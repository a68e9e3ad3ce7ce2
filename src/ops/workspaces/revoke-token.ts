import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { sha256Hex } from "../../kernel/secrets.ts"

export const revokeToken = operation({
  name: "revokeToken",
  summary: "Revoke an API token (admin)",
  description: "The token stops working at once. Takes the token id, or the token itself.",
  path: Schema.Struct({ tokenId: Schema.String.annotations({ description: "The token's id, or the token itself." }) }),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    tokenId: Schema.String.annotations({ description: "The revoked token's id." }),
    revoked: Schema.Literal(true).annotations({ description: "Always true." })
  }),
  errors: ["NotFound"],
  http: { method: "DELETE", path: "/admin/tokens/:tokenId" },
  access: "admin",
  tool: null,
  cli: "token:revoke",
  idempotent: false,
  handle: ({ tokenId }) =>
    Effect.gen(function*() {
      const store = yield* WorkspaceStore
      const byId = yield* store.getToken(tokenId)
      const found = Option.isSome(byId) ? byId : yield* store.findTokenByHash(sha256Hex(tokenId))
      if (Option.isNone(found)) return yield* new NotFound({ resource: "token", id: tokenId })
      yield* store.revokeToken(found.value.id, yield* nowIso)
      return { tokenId: found.value.id, revoked: true as const }
    })
})
