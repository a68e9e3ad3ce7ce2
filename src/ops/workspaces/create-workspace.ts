import { Effect, Option, Schema } from "effect"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { UserStore } from "../../../domain/ports/user-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { Plan } from "../../../domain/plans.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { newApiToken, newId, sha256Hex } from "../../kernel/secrets.ts"

export const NewWorkspace = Schema.Struct({
  name: Schema.String.pipe(Schema.trimmed(), Schema.minLength(1), Schema.maxLength(120)).annotations({
    description: "The workspace's name, as its members see it."
  }),
  ownerEmail: Schema.String.pipe(Schema.pattern(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { message: () => "ownerEmail must be an email address" })).annotations({
    description: "The email address of the workspace's owner.",
    examples: ["ada@example.com"]
  }),
  plan: Schema.optionalWith(Plan, { default: () => "free" as const }),
  credits: Schema.optionalWith(
    Schema.Int.pipe(Schema.nonNegative()).annotations({ description: "Credits to start with, beside the plan's monthly grant." }),
    { default: () => 0 }
  ),
  token: Schema.optional(
    Schema.String.pipe(Schema.minLength(16)).annotations({
      description: "Use this API token instead of a random one (development set-ups)."
    })
  )
})

/**
 * Creates a workspace with its first API token, its opening credit balance and its owner (a user
 * found or made, without a password until `user:create` sets one), atomically.
 */
export const createWorkspaceNow = (input: typeof NewWorkspace.Type) =>
  Effect.gen(function*() {
    const at = yield* nowIso
    const id = newId()
    const token = input.token ?? newApiToken()
    const store = yield* WorkspaceStore
    yield* (yield* Transactor).atomically(Effect.gen(function*() {
      yield* store.insert({
        id,
        name: input.name,
        ownerEmail: input.ownerEmail,
        plan: input.plan,
        byok: false,
        lastTemplateId: null,
        createdAt: at
      })
      yield* store.insertToken({ id: newId(), workspaceId: id, hash: sha256Hex(token), label: "first token", createdAt: at, revokedAt: null })
      const users = yield* UserStore
      const email = input.ownerEmail.toLowerCase()
      const owner = yield* users.findUserByEmail(email)
      const ownerId = Option.isSome(owner) ? owner.value.id : newId()
      if (Option.isNone(owner)) yield* users.insertUser({ id: ownerId, email, passwordHash: null, createdAt: at })
      yield* users.addMembership({ userId: ownerId, workspaceId: id, role: "owner", createdAt: at })
      if (input.credits > 0) {
        yield* (yield* Ledger).post({
          id: newId(),
          workspaceId: id,
          key: `${id}:opening-balance`,
          amount: input.credits,
          reason: "opening balance",
          operation: "opening balance",
          workKey: null,
          videoId: null,
          at
        }).pipe(Effect.orDie)
      }
    }))
    return { workspaceId: id, token }
  })

export const createWorkspace = operation({
  name: "createWorkspace",
  summary: "Create a workspace (admin)",
  description: "Creates a workspace, its first API token (shown once) and its opening credit balance.",
  path: Schema.Struct({}),
  payload: NewWorkspace,
  output: Schema.Struct({
    workspaceId: Schema.String.annotations({ description: "The new workspace's id." }),
    token: Schema.String.annotations({ description: "Its first API token; shown once, stored only as a hash." })
  }),
  errors: [],
  http: { method: "POST", path: "/admin/workspaces" },
  access: "admin",
  tool: null,
  cli: "workspace:create",
  idempotent: false,
  handle: createWorkspaceNow
})
