// RFC 7009 revocation: either token ends the grant, so both stop together; unknown tokens and other
// clients' tokens are answered as a success and change nothing.
import { expect, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { authenticateMcp } from "../../src/ops/oauth/authenticate-mcp.ts"
import { revokeOAuthToken } from "../../src/ops/oauth/revoke-oauth-token.ts"
import { aClient, connectedApp, refreshWith, RESOURCE, TestStores } from "./fixture.ts"

const accessWorks = (accessToken: string) => authenticateMcp(accessToken, RESOURCE).pipe(Effect.either, Effect.map(Either.isRight))

it.effect("answers success for an unknown token, and refuses a request without one", () =>
  Effect.gen(function*() {
    yield* revokeOAuthToken({ token: "rwat_never_issued" })
    yield* revokeOAuthToken({ token: "anything at all", token_type_hint: "refresh_token" })
    expect((yield* Effect.flip(revokeOAuthToken({}))).error).toBe("invalid_request")
  }).pipe(Effect.provide(TestStores)))

it.effect("revoking the access token stops the refresh token too", () =>
  Effect.gen(function*() {
    const { clientId, tokens } = yield* connectedApp()
    yield* revokeOAuthToken({ token: tokens.access_token, token_type_hint: "access_token", client_id: clientId })
    expect(yield* accessWorks(tokens.access_token)).toBe(false)
    expect((yield* Effect.flip(refreshWith(clientId, tokens.refresh_token))).error).toBe("invalid_grant")
  }).pipe(Effect.provide(TestStores)))

it.effect("revoking the refresh token stops the access token too", () =>
  Effect.gen(function*() {
    const { clientId, tokens } = yield* connectedApp()
    yield* revokeOAuthToken({ token: tokens.refresh_token, client_id: clientId })
    expect(yield* accessWorks(tokens.access_token)).toBe(false)
    expect((yield* Effect.flip(refreshWith(clientId, tokens.refresh_token))).error).toBe("invalid_grant")
  }).pipe(Effect.provide(TestStores)))

it.effect("does not revoke another client's token", () =>
  Effect.gen(function*() {
    const { clientId, tokens } = yield* connectedApp()
    const stranger = yield* aClient({ client_name: "Stranger" })
    yield* revokeOAuthToken({ token: tokens.access_token, client_id: stranger })
    yield* revokeOAuthToken({ token: tokens.refresh_token, client_id: stranger })
    expect(yield* accessWorks(tokens.access_token)).toBe(true)
    yield* refreshWith(clientId, tokens.refresh_token)
  }).pipe(Effect.provide(TestStores)))
