// Dynamic client registration: public clients only, redirect URIs https or loopback http.
import { expect, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { OAuthStore } from "../../domain/ports/oauth-store.ts"
import { WebhookUrl } from "../../domain/rules.ts"
import { registerClient } from "../../src/ops/oauth/register-client.ts"
import { TestStores } from "./fixture.ts"

const refusal = (metadata: unknown) => Effect.flip(registerClient(metadata))

it.effect("registers a public client and echoes its metadata, with no secret", () =>
  Effect.gen(function*() {
    const body = yield* registerClient({
      client_name: "Claude",
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      client_uri: "https://claude.ai",
      scope: "mcp",
      jwks_uri: "https://ignored.example/jwks"
    })
    expect(body.client_id).toMatch(/^rwc_/)
    expect(body).toMatchObject({
      client_name: "Claude",
      redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      client_uri: "https://claude.ai",
      scope: "mcp"
    })
    expect(typeof body.client_id_issued_at).toBe("number")
    expect(body).not.toHaveProperty("client_secret")
    expect(body).not.toHaveProperty("jwks_uri")
    const stored = Option.getOrThrow(yield* (yield* OAuthStore).getClient(body.client_id as string))
    expect(stored.name).toBe("Claude")
    expect(stored.redirectUris).toEqual(["https://claude.ai/api/mcp/auth_callback"])
  }).pipe(Effect.provide(TestStores)))

it.effect("accepts http redirect URIs on localhost, 127.0.0.1 and [::1] only", () =>
  Effect.gen(function*() {
    for (const uri of ["http://localhost:3000/cb", "http://127.0.0.1:9/cb", "http://[::1]:8080/cb"]) {
      const body = yield* registerClient({ redirect_uris: [uri] })
      expect(body.redirect_uris).toEqual([uri])
    }
    const remote = yield* refusal({ redirect_uris: ["http://example.com/cb"] })
    expect(remote.error).toBe("invalid_redirect_uri")
    expect(remote.description).toContain("https")
    // Unlike webhookUrl, which we call ourselves and so want https even on localhost.
    expect(Schema.decodeUnknownOption(WebhookUrl)("http://localhost:3000/hook")).toEqual(Option.none())
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses a registration without redirect URIs, or with a bad one", () =>
  Effect.gen(function*() {
    for (const metadata of [{}, { redirect_uris: [] }, { redirect_uris: "https://a.example/cb" }, { redirect_uris: [42] }]) {
      expect((yield* refusal(metadata)).error).toBe("invalid_redirect_uri")
    }
    expect((yield* refusal({ redirect_uris: ["https://a.example/cb#frag"] })).error).toBe("invalid_redirect_uri")
    expect((yield* refusal({ redirect_uris: ["javascript:alert(1)"] })).error).toBe("invalid_redirect_uri")
    expect((yield* refusal([])).error).toBe("invalid_client_metadata")
  }).pipe(Effect.provide(TestStores)))

it.effect("refuses clients with secrets and flows other than the code flow", () =>
  Effect.gen(function*() {
    const redirect_uris = ["https://app.example/cb"]
    const secret = yield* refusal({ redirect_uris, token_endpoint_auth_method: "client_secret_basic" })
    expect(secret.error).toBe("invalid_client_metadata")
    expect(secret.description).toContain("none")
    expect((yield* refusal({ redirect_uris, grant_types: ["implicit"] })).error).toBe("invalid_client_metadata")
    expect((yield* refusal({ redirect_uris, response_types: ["token"] })).error).toBe("invalid_client_metadata")
    expect((yield* refusal({ redirect_uris, client_uri: "javascript:alert(1)" })).error).toBe("invalid_client_metadata")
  }).pipe(Effect.provide(TestStores)))
