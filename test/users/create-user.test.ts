// user:create makes an account, or sets the password of a workspace owner made without one, once.
import { expect, it } from "@effect/vitest"
import { Effect, Either, Option, Schema } from "effect"
import { UserStore } from "../../domain/ports/user-store.ts"
import { verifyPassword } from "../../src/kernel/password.ts"
import { createUser } from "../../src/ops/users/create-user.ts"
import { asAdmin, aWorkspace, TestStores, userIdOf } from "../oauth/fixture.ts"

const decode = Schema.decodeUnknownEither(createUser.payload)
const create = (input: Record<string, unknown>) => asAdmin(createUser.handle(Either.getOrThrow(decode(input))))

it.effect("creates a user with a hashed password and a lower-cased email", () =>
  Effect.gen(function*() {
    const created = yield* create({ email: " Ada@Example.com ", password: "correct horse battery" })
    expect(created.email).toBe("ada@example.com")
    const user = Option.getOrThrow(yield* (yield* UserStore).getUser(created.userId))
    expect(user.email).toBe("ada@example.com")
    expect(user.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/)
    expect(user.passwordHash).not.toContain("correct horse")
    expect(yield* verifyPassword("correct horse battery", user.passwordHash!)).toBe(true)
    expect(yield* verifyPassword("correct horse batterY", user.passwordHash!)).toBe(false)
  }).pipe(Effect.provide(TestStores)))

it.effect("sets the password of a passwordless owner, and refuses a second time", () =>
  Effect.gen(function*() {
    yield* aWorkspace("owner@example.com")
    const ownerId = yield* userIdOf("owner@example.com")
    const created = yield* create({ email: "owner@example.com", password: "first password" })
    expect(created.userId).toBe(ownerId)
    const again = yield* Effect.flip(create({ email: "OWNER@example.com", password: "second password" }))
    expect(again._tag).toBe("Conflict")
    const user = Option.getOrThrow(yield* (yield* UserStore).getUser(ownerId))
    expect(yield* verifyPassword("first password", user.passwordHash!)).toBe(true)
  }).pipe(Effect.provide(TestStores)))

it("refuses a short password or a malformed email before anything is stored", () => {
  expect(Either.isLeft(decode({ email: "ada@example.com", password: "too short" }))).toBe(true)
  expect(Either.isLeft(decode({ email: "not-an-email", password: "long enough password" }))).toBe(true)
})
