import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { newApiToken, newId, sha256Hex } from "../../kernel/secrets.ts"

export const issueToken = operation({
  name: "issueToken",
  summary: "Issue an API token (admin)",
  description: "A new API token for the workspace; shown once, stored only as a hash.",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace the token acts for." }) }),
  payload: Schema.Struct({ label: Schema.optionalWith(
    Schema.String.pipe(Schema.maxLength(120)).annotations({ description: "What the token is for, shown beside it." }),
    { default: () => "api token" }
  ) }),
  output: Schema.Struct({
    tokenId: Schema.String.annotations({ description: "Names the token for revocation." }),
    token: Schema.String.annotations({ description: "The API token; shown once, stored only as a hash." })
  }),
  errors: ["NotFound"],
  http: { method: "POST", path: "/admin/workspaces/:workspaceId/tokens" },
  access: "admin",
  tool: null,
  cli: "token:issue",
  idempotent: false,
  handle: ({ workspaceId, label }) =>
    Effect.gen(function*() {
      const store = yield* WorkspaceStore
      if (Option.isNone(yield* store.get(workspaceId))) return yield* new NotFound({ resource: "workspace", id: workspaceId })
      const token = newApiToken()
      const tokenId = newId()
      yield* store.insertToken({ id: tokenId, workspaceId, hash: sha256Hex(token), label, createdAt: yield* nowIso, revokedAt: null })
      return { tokenId, token }
    })
})
