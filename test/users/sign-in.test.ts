// Signing in: one message for every refusal, so it does not tell which accounts exist.
import { expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { UserStore } from "../../domain/ports/user-store.ts"
import { sha256Hex } from "../../src/kernel/secrets.ts"
import { createUser } from "../../src/ops/users/create-user.ts"
import { currentUser } from "../../src/ops/users/parts/session.ts"
import { signIn } from "../../src/ops/users/parts/sign-in.ts"
import { asAdmin, aWorkspace, TestStores } from "../oauth/fixture.ts"

it.effect("signs in with the right password and opens a session stored only as a hash", () =>
  Effect.gen(function*() {
    const { userId } = yield* asAdmin(createUser.handle({ email: "ada@example.com", password: "correct horse battery" }))
    const signed = yield* signIn("ADA@example.com", "correct horse battery")
    expect(signed.user.id).toBe(userId)
    expect(signed.sessionToken).toMatch(/^rwss_/)
    expect(signed.expiresAt).toBe(new Date(7 * 24 * 3600 * 1000).toISOString())
    const stored = Option.getOrThrow(yield* (yield* UserStore).findSession(sha256Hex(signed.sessionToken)))
    expect(stored.session.userId).toBe(userId)
    expect(Option.map(yield* currentUser(signed.sessionToken), (u) => u.id)).toEqual(Option.some(userId))
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses a wrong password, an unknown email and a passwordless owner with the same message", () =>
  Effect.gen(function*() {
    yield* asAdmin(createUser.handle({ email: "ada@example.com", password: "correct horse battery" }))
    yield* aWorkspace("owner@example.com")
    const wrong = yield* Effect.flip(signIn("ada@example.com", "wrong horse battery"))
    const unknown = yield* Effect.flip(signIn("nobody@example.com", "correct horse battery"))
    const passwordless = yield* Effect.flip(signIn("owner@example.com", "anything at all"))
    expect(wrong._tag).toBe("SignInRefused")
    expect(unknown.message).toBe(wrong.message)
    expect(passwordless.message).toBe(wrong.message)
  }).pipe(Effect.provide(TestStores)))
