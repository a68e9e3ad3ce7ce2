import { Effect, Option, Schema } from "effect"
import { Conflict } from "../../../domain/errors.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { UserStore } from "../../../domain/ports/user-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { hashPassword } from "../../kernel/password.ts"
import { newId } from "../../kernel/secrets.ts"
import { EmailAddress } from "./parts/email-address.ts"

export const createUser = operation({
  name: "createUser",
  summary: "Create a user (admin)",
  description:
    "An account that signs in to approve apps (MCP clients) for its workspaces. A workspace's owner exists from the workspace's creation without a password: this sets it.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    email: EmailAddress,
    password: Schema.String.pipe(
      Schema.minLength(10, { message: () => "password must be at least 10 characters" }),
      Schema.maxLength(1024)
    ).annotations({ description: "At least 10 characters; stored only as an scrypt hash." })
  }),
  output: Schema.Struct({
    userId: Schema.String.annotations({ description: "The user's id." }),
    email: Schema.String.annotations({ description: "The email, lower-cased." })
  }),
  errors: ["Conflict"],
  http: { method: "POST", path: "/admin/users" },
  access: "admin",
  tool: null,
  cli: "user:create",
  idempotent: false,
  handle: ({ email, password }) =>
    Effect.gen(function*() {
      // Hashed before the transaction: it is the slow part, and needs no lock.
      const passwordHash = yield* hashPassword(password)
      const users = yield* UserStore
      return yield* (yield* Transactor).atomically(Effect.gen(function*() {
        const existing = yield* users.findUserByEmail(email)
        if (Option.isSome(existing)) {
          const user = existing.value
          if (user.passwordHash !== null) {
            return yield* new Conflict({ message: `The user ${email} already exists and has a password.` })
          }
          yield* users.updateUser({ ...user, passwordHash })
          return { userId: user.id, email }
        }
        const userId = newId()
        yield* users.insertUser({ id: userId, email, passwordHash, createdAt: yield* nowIso })
        return { userId, email }
      }))
    })
})
