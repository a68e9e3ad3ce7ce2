// The authorization endpoint's checks: nothing is redirected to an unchecked URI, PKCE is S256 only,
// and tokens are only for /mcp. Approval needs membership of the workspace picked.
import { expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { pkceS256 } from "../../src/kernel/secrets.ts"
import { approveAuthorization } from "../../src/ops/oauth/approve-authorization.ts"
import {
  authorizationErrorUrl,
  checkAuthorizationRequest,
  denyAuthorization
} from "../../src/ops/oauth/authorization-request.ts"
import { aClient, authorizeParams, aWorkspace, BASE_URL, newVerifier, REDIRECT, RESOURCE, TestStores, userIdOf } from "./fixture.ts"

const refusal = (params: Record<string, string | undefined>) => Effect.flip(checkAuthorizationRequest(params))

it.effect("accepts a PKCE S256 request for the MCP resource", () =>
  Effect.gen(function*() {
    const clientId = yield* aClient()
    const verifier = newVerifier()
    const request = yield* checkAuthorizationRequest(authorizeParams(clientId, verifier, { resource: "HTTP://127.0.0.1:8080/mcp/" }))
    expect(request).toMatchObject({
      redirectUri: REDIRECT,
      state: "state-1",
      codeChallenge: pkceS256(verifier),
      resource: RESOURCE,
      scope: null,
      issuer: BASE_URL
    })
    expect(request.client.id).toBe(clientId)
    // No resource: the MCP endpoint, the only one there is. One registered redirect URI: it may be left out.
    const defaults = yield* checkAuthorizationRequest(authorizeParams(clientId, verifier, { resource: undefined, redirect_uri: undefined }))
    expect(defaults.resource).toBe(RESOURCE)
    expect(defaults.redirectUri).toBe(REDIRECT)
  }).pipe(Effect.provide(TestStores)))

it.effect("never redirects for an unknown client or a redirect URI it did not register", () =>
  Effect.gen(function*() {
    const clientId = yield* aClient({ redirect_uris: [REDIRECT, "https://app.example/cb"] })
    const verifier = newVerifier()
    const unknown = yield* refusal(authorizeParams("rwc_unknown", verifier))
    expect(unknown.redirect).toBeNull()
    expect(unknown.error).toBe("invalid_client")
    const wrong = yield* refusal(authorizeParams(clientId, verifier, { redirect_uri: "https://evil.example/cb" }))
    expect(wrong.redirect).toBeNull()
    expect(wrong.error).toBe("invalid_request")
    // A prefix, or another port, is not an exact match.
    expect((yield* refusal(authorizeParams(clientId, verifier, { redirect_uri: `${REDIRECT}/more` }))).redirect).toBeNull()
    expect((yield* refusal(authorizeParams(clientId, verifier, { redirect_uri: "http://127.0.0.1:10/callback" }))).redirect).toBeNull()
    // With two registered, leaving it out is ambiguous.
    expect((yield* refusal(authorizeParams(clientId, verifier, { redirect_uri: undefined }))).redirect).toBeNull()
    // The refusal is shown, not redirected, so no error URL can be made of it.
    expect(() => authorizationErrorUrl(wrong)).toThrow()
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses plain, missing or malformed PKCE, back to the client", () =>
  Effect.gen(function*() {
    const clientId = yield* aClient()
    const verifier = newVerifier()
    for (
      const changes of [
        { code_challenge_method: "plain" },
        { code_challenge_method: undefined },
        { code_challenge: undefined },
        { code_challenge: "too-short" },
        { code_challenge: `${pkceS256(verifier).slice(0, 42)}=` }
      ]
    ) {
      const refused = yield* refusal(authorizeParams(clientId, verifier, changes))
      expect(refused.error).toBe("invalid_request")
      expect(refused.redirect).toEqual({ uri: REDIRECT, state: "state-1", issuer: BASE_URL })
    }
    const url = new URL(authorizationErrorUrl(yield* refusal(authorizeParams(clientId, verifier, { code_challenge_method: "plain" }))))
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT)
    expect(url.searchParams.get("error")).toBe("invalid_request")
    expect(url.searchParams.get("error_description")).toContain("S256")
    expect(url.searchParams.get("state")).toBe("state-1")
    expect(url.searchParams.get("iss")).toBe(BASE_URL)
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses another resource (invalid_target) and response types other than code", () =>
  Effect.gen(function*() {
    const clientId = yield* aClient()
    const verifier = newVerifier()
    for (const resource of ["https://other.example/mcp", `${BASE_URL}/v1`, "not a url"]) {
      const refused = yield* refusal(authorizeParams(clientId, verifier, { resource }))
      expect(refused.error).toBe("invalid_target")
      expect(refused.redirect?.uri).toBe(REDIRECT)
    }
    expect((yield* refusal(authorizeParams(clientId, verifier, { response_type: "token" }))).error).toBe("unsupported_response_type")
    expect((yield* refusal(authorizeParams(clientId, verifier, { response_type: undefined }))).error).toBe("invalid_request")
  }).pipe(Effect.provide(TestStores)))

it.effect("approves for a workspace of the user's, with the code, state and issuer in the redirect", () =>
  Effect.gen(function*() {
    const { workspaceId } = yield* aWorkspace("owner@example.com")
    const other = yield* aWorkspace("someone-else@example.com", "Elsewhere")
    const userId = yield* userIdOf("owner@example.com")
    const clientId = yield* aClient()
    const request = yield* checkAuthorizationRequest(authorizeParams(clientId, newVerifier()))

    const notMember = yield* Effect.flip(approveAuthorization(request, userId, other.workspaceId))
    expect(notMember._tag).toBe("NotFound")
    expect((yield* Effect.flip(approveAuthorization(request, userId, "no-such-workspace")))._tag).toBe("NotFound")

    const url = new URL((yield* approveAuthorization(request, userId, workspaceId)).redirectTo)
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT)
    expect(url.searchParams.get("code")).toMatch(/^rwac_/)
    expect(url.searchParams.get("state")).toBe("state-1")
    expect(url.searchParams.get("iss")).toBe(BASE_URL)

    const denied = new URL(denyAuthorization(request))
    expect(denied.searchParams.get("error")).toBe("access_denied")
    expect(denied.searchParams.get("state")).toBe("state-1")
    expect(denied.searchParams.get("code")).toBeNull()
  }).pipe(Effect.provide(TestStores)))
