import { Effect, Option, Schema } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { UserStore } from "../../../domain/ports/user-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { EmailAddress } from "./parts/email-address.ts"

const MemberRole = Schema.Literal("owner", "member")

export const addMember = operation({
  name: "addMember",
  summary: "Add a user to a workspace (admin)",
  description:
    "Lets the user approve apps (MCP clients) for this workspace. Adding an existing member again sets their role.",
  path: Schema.Struct({ workspaceId: Schema.String.annotations({ description: "The workspace to join." }) }),
  payload: Schema.Struct({
    email: EmailAddress.annotations({ description: "A user made with `user:create` (or a workspace's owner)." }),
    role: Schema.optionalWith(
      MemberRole.annotations({ description: "owner or member (the default); both may approve apps for the workspace." }),
      { default: () => "member" as const }
    )
  }),
  output: Schema.Struct({
    userId: Schema.String.annotations({ description: "The user's id." }),
    workspaceId: Schema.String.annotations({ description: "The workspace's id." }),
    role: MemberRole.annotations({ description: "The user's role in the workspace now." })
  }),
  errors: ["NotFound"],
  http: { method: "POST", path: "/admin/workspaces/:workspaceId/members" },
  access: "admin",
  tool: null,
  cli: "member:add",
  idempotent: false,
  handle: ({ workspaceId, email, role }) =>
    Effect.gen(function*() {
      if (Option.isNone(yield* (yield* WorkspaceStore).get(workspaceId))) {
        return yield* new NotFound({ resource: "workspace", id: workspaceId })
      }
      const users = yield* UserStore
      const user = yield* users.findUserByEmail(email)
      if (Option.isNone(user)) {
        return yield* new NotFound({ resource: "user", id: `${email} (create the account first with user:create)` })
      }
      const userId = user.value.id
      yield* users.addMembership({ userId, workspaceId, role, createdAt: yield* nowIso })
      return { userId, workspaceId, role }
    })
})
