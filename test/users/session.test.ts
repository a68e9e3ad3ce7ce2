// Sessions end after SESSION_TTL or at sign-out; CSRF tokens belong to one session.
import { expect, it } from "@effect/vitest"
import { Duration, Effect, Option, TestClock } from "effect"
import { SESSION_TTL } from "../../domain/oauth.ts"
import { createUser } from "../../src/ops/users/create-user.ts"
import { csrfMatches, csrfTokenFor, currentUser, signOut } from "../../src/ops/users/parts/session.ts"
import { signIn } from "../../src/ops/users/parts/sign-in.ts"
import { asAdmin, TestStores } from "../oauth/fixture.ts"

const signedIn = Effect.gen(function*() {
  yield* asAdmin(createUser.handle({ email: "ada@example.com", password: "correct horse battery" }))
  return (yield* signIn("ada@example.com", "correct horse battery")).sessionToken
})

it.effect("a session ends after SESSION_TTL", () =>
  Effect.gen(function*() {
    const token = yield* signedIn
    yield* TestClock.adjust(Duration.subtract(SESSION_TTL, Duration.seconds(1)))
    expect(Option.isSome(yield* currentUser(token))).toBe(true)
    yield* TestClock.adjust("1 second")
    expect(yield* currentUser(token)).toEqual(Option.none())
  }).pipe(Effect.provide(TestStores)))

it.effect("sign-out ends the session; unknown and missing tokens have no user", () =>
  Effect.gen(function*() {
    const token = yield* signedIn
    yield* signOut(token)
    expect(yield* currentUser(token)).toEqual(Option.none())
    expect(yield* currentUser("rwss_made_up")).toEqual(Option.none())
    expect(yield* currentUser(undefined)).toEqual(Option.none())
  }).pipe(Effect.provide(TestStores)))

it("matches a CSRF token to its own session only", () => {
  const csrf = csrfTokenFor("rwss_one")
  expect(csrf).not.toContain("rwss_one")
  expect(csrfMatches("rwss_one", csrf)).toBe(true)
  expect(csrfMatches("rwss_two", csrf)).toBe(false)
  expect(csrfMatches("rwss_one", undefined)).toBe(false)
  expect(csrfMatches("rwss_one", "")).toBe(false)
  expect(csrfMatches("rwss_one", `${csrf}x`)).toBe(false)
})
