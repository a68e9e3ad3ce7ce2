// The token endpoint: codes are single-use, PKCE-bound and short-lived; refresh tokens rotate, and a
// reused one revokes the grant; every token is for /mcp and its one workspace.
import { expect, it } from "@effect/vitest"
import { Effect, Either, TestClock } from "effect"
import { authenticateMcp } from "../../src/ops/oauth/authenticate-mcp.ts"
import { exchangeToken } from "../../src/ops/oauth/token-exchange.ts"
import {
  aClient,
  approvedCode,
  aWorkspace,
  connectedApp,
  exchangeCode,
  newVerifier,
  refreshWith,
  RESOURCE,
  TestStores,
  userIdOf
} from "./fixture.ts"

/** The workspace id the access token acts for, or the reason it does not work. */
const mcpAccess = (accessToken: string) =>
  authenticateMcp(accessToken, RESOURCE).pipe(Effect.map((w) => w.id), Effect.either)

/** A workspace with its owner and a client, and a fresh code approved for them. */
const codeSetUp = (clientMetadata: Record<string, unknown> = {}) =>
  Effect.gen(function*() {
    const { workspaceId } = yield* aWorkspace()
    const userId = yield* userIdOf("owner@example.com")
    const clientId = yield* aClient(clientMetadata)
    const verifier = newVerifier()
    const code = yield* approvedCode(clientId, userId, workspaceId, verifier)
    return { workspaceId, clientId, verifier, code }
  })

it.effect("exchanges a code for a 12 h access token for the workspace and a refresh token", () =>
  Effect.gen(function*() {
    const { clientId, code, verifier, workspaceId } = yield* codeSetUp()
    const tokens = yield* exchangeCode(clientId, code, verifier)
    expect(tokens.token_type).toBe("Bearer")
    expect(tokens.expires_in).toBe(43_200)
    expect(tokens.access_token).toMatch(/^rwat_/)
    expect(tokens.refresh_token).toMatch(/^rwrt_/)
    expect(tokens).not.toHaveProperty("scope")
    expect(yield* mcpAccess(tokens.access_token)).toEqual(Either.right(workspaceId))
    // The refresh token is not an access token.
    expect(Either.isLeft(yield* mcpAccess(tokens.refresh_token))).toBe(true)
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses a verifier that does not match the challenge", () =>
  Effect.gen(function*() {
    const { clientId, code } = yield* codeSetUp()
    const refused = yield* Effect.flip(exchangeCode(clientId, code, newVerifier()))
    expect(refused.error).toBe("invalid_grant")
    expect(refused.description).toContain("code_verifier")
    const malformed = yield* codeSetUp()
    expect((yield* Effect.flip(exchangeCode(malformed.clientId, malformed.code, "short"))).error).toBe("invalid_request")
    expect((yield* Effect.flip(exchangeCode(malformed.clientId, malformed.code, "", { code_verifier: undefined }))).error)
      .toBe("invalid_request")
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses a redirect_uri other than the code's", () =>
  Effect.gen(function*() {
    const { clientId, code, verifier } = yield* codeSetUp({ redirect_uris: ["http://127.0.0.1:9/callback", "https://app.example/cb"] })
    const refused = yield* Effect.flip(exchangeCode(clientId, code, verifier, { redirect_uri: "https://app.example/cb" }))
    expect(refused.error).toBe("invalid_grant")
    expect(refused.description).toContain("redirect_uri")
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses an unknown client, and another client's code", () =>
  Effect.gen(function*() {
    const { clientId, code, verifier } = yield* codeSetUp()
    expect((yield* Effect.flip(exchangeCode("rwc_unknown", code, verifier))).error).toBe("invalid_client")
    expect((yield* Effect.flip(exchangeCode(clientId, code, verifier, { client_id: undefined }))).error).toBe("invalid_client")
    const otherClient = yield* aClient()
    expect((yield* Effect.flip(exchangeCode(otherClient, code, verifier))).error).toBe("invalid_grant")
  }).pipe(Effect.provide(TestStores)))

it.effect("takes a code up to 60 s old, not after", () =>
  Effect.gen(function*() {
    const fresh = yield* codeSetUp()
    yield* TestClock.adjust("59 seconds")
    yield* exchangeCode(fresh.clientId, fresh.code, fresh.verifier)

    const stale = yield* codeSetUp()
    yield* TestClock.adjust("61 seconds")
    const refused = yield* Effect.flip(exchangeCode(stale.clientId, stale.code, stale.verifier))
    expect(refused.error).toBe("invalid_grant")
    expect(refused.description).toContain("expired")
  }).pipe(Effect.provide(TestStores)))

it.effect("a replayed code fails and revokes the grant: the tokens of the first exchange stop working", () =>
  Effect.gen(function*() {
    const { clientId, code, verifier, workspaceId } = yield* codeSetUp()
    const first = yield* exchangeCode(clientId, code, verifier)
    expect(yield* mcpAccess(first.access_token)).toEqual(Either.right(workspaceId))

    const replay = yield* Effect.flip(exchangeCode(clientId, code, verifier))
    expect(replay.error).toBe("invalid_grant")
    expect(replay.description).toContain("already used")
    const access = yield* mcpAccess(first.access_token)
    expect(Either.isLeft(access) && access.left.reason).toBe("invalid_token")
    expect((yield* Effect.flip(refreshWith(clientId, first.refresh_token))).error).toBe("invalid_grant")
  }).pipe(Effect.provide(TestStores)))

it.effect("an unknown code or grant type is refused", () =>
  Effect.gen(function*() {
    const { clientId, verifier } = yield* codeSetUp()
    expect((yield* Effect.flip(exchangeCode(clientId, "rwac_made_up", verifier))).error).toBe("invalid_grant")
    expect((yield* Effect.flip(exchangeToken({ grant_type: "password", client_id: clientId }))).error).toBe("unsupported_grant_type")
    expect((yield* Effect.flip(exchangeToken({ client_id: clientId }))).error).toBe("invalid_request")
  }).pipe(Effect.provide(TestStores)))

it.effect("rotates the refresh token on every use; reusing an old one revokes the grant", () =>
  Effect.gen(function*() {
    const { clientId, tokens, workspaceId } = yield* connectedApp()
    const second = yield* refreshWith(clientId, tokens.refresh_token)
    expect(second.refresh_token).not.toBe(tokens.refresh_token)
    expect(second.access_token).not.toBe(tokens.access_token)
    const third = yield* refreshWith(clientId, second.refresh_token)
    expect(new Set([tokens.refresh_token, second.refresh_token, third.refresh_token]).size).toBe(3)
    expect(yield* mcpAccess(third.access_token)).toEqual(Either.right(workspaceId))

    const reuse = yield* Effect.flip(refreshWith(clientId, tokens.refresh_token))
    expect(reuse.error).toBe("invalid_grant")
    const access = yield* mcpAccess(third.access_token)
    expect(Either.isLeft(access) && access.left.reason).toBe("invalid_token")
    expect((yield* Effect.flip(refreshWith(clientId, third.refresh_token))).error).toBe("invalid_grant")
  }).pipe(Effect.provide(TestStores)))

it.effect("an access token stops working after 12 h", () =>
  Effect.gen(function*() {
    const { tokens, workspaceId } = yield* connectedApp()
    yield* TestClock.adjust("719 minutes")
    expect(yield* mcpAccess(tokens.access_token)).toEqual(Either.right(workspaceId))
    yield* TestClock.adjust("1 minute")
    const expired = yield* mcpAccess(tokens.access_token)
    expect(Either.isLeft(expired) && expired.left.reason).toBe("invalid_token")
  }).pipe(Effect.provide(TestStores)))

it.effect("a refresh token stops working 90 days after its issue", () =>
  Effect.gen(function*() {
    const { clientId, tokens } = yield* connectedApp()
    yield* TestClock.adjust("90 days")
    const refused = yield* Effect.flip(refreshWith(clientId, tokens.refresh_token))
    expect(refused.error).toBe("invalid_grant")
    expect(refused.description).toContain("expired")
  }).pipe(Effect.provide(TestStores)))

it.effect("each rotation's refresh token lasts 90 days from its own issue, however old the grant", () =>
  Effect.gen(function*() {
    const { clientId, tokens, workspaceId } = yield* connectedApp()
    yield* TestClock.adjust("80 days")
    const second = yield* refreshWith(clientId, tokens.refresh_token)
    yield* TestClock.adjust("80 days")
    const third = yield* refreshWith(clientId, second.refresh_token)
    expect(yield* mcpAccess(third.access_token)).toEqual(Either.right(workspaceId))
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses a resource other than /mcp on code exchange and refresh (invalid_target)", () =>
  Effect.gen(function*() {
    const { clientId, code, verifier } = yield* codeSetUp()
    const onCode = yield* Effect.flip(exchangeCode(clientId, code, verifier, { resource: "https://other.example/mcp" }))
    expect(onCode.error).toBe("invalid_target")
    // Checked before the code is spent: the right request still works.
    const tokens = yield* exchangeCode(clientId, code, verifier, { resource: "http://127.0.0.1:8080/mcp/" })
    const onRefresh = yield* Effect.flip(refreshWith(clientId, tokens.refresh_token, { resource: "http://127.0.0.1:8080/v1" }))
    expect(onRefresh.error).toBe("invalid_target")
    yield* refreshWith(clientId, tokens.refresh_token, { resource: undefined })
  }).pipe(Effect.provide(TestStores)))
