// The OAuth authorization server end to end, driven by the real MCP SDK client: 401 -> discovery ->
// registration -> sign-in and consent through the real pages -> token -> tools -> refresh rotation ->
// refresh reuse (the grant dies) -> a new authorization -> revocation. Around it, the refusals a
// client or a browser can run into, over real HTTP on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import {
  auth,
  discoverOAuthServerInfo,
  type OAuthClientProvider,
  refreshAuthorization,
  UnauthorizedError
} from "@modelcontextprotocol/sdk/client/auth.js"
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { createHash, randomBytes } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApp, type TestApp } from "../support/app.ts"
import { makeSpokenClip } from "../support/clips.ts"
import { FormBrowser as PageBrowser, formsOf, formTo } from "../support/form-browser.ts"
import { call, serveFiles } from "../support/http-client.ts"
import { startHttpsReceiver } from "../support/https-receiver.ts"
import { json, metadataDocument, startDocumentServer } from "./document-server.ts"

const PASSWORD = "correct horse battery"

/** Signs in with the test users' password unless told otherwise. */
class FormBrowser extends PageBrowser {
  override signIn(target: string | URL, email: string, password = PASSWORD) {
    return super.signIn(target, email, password)
  }
}

let app: TestApp
let dir: string
let files: Awaited<ReturnType<typeof serveFiles>>
let studioA: { workspaceId: string; token: string }
let studioB: { workspaceId: string; token: string }

beforeAll(async () => {
  app = await startApp()
  studioA = await app.createWorkspace({ name: "Studio A", ownerEmail: "owner-a@example.com" })
  studioB = await app.createWorkspace({ name: "Studio B", ownerEmail: "owner-b@example.com" })
  await app.createUser({ email: "ada@example.com", password: PASSWORD, workspaces: [{ workspaceId: studioA.workspaceId }] })
  await app.createUser({
    email: "bea@example.com",
    password: PASSWORD,
    workspaces: [{ workspaceId: studioA.workspaceId }, { workspaceId: studioB.workspaceId, role: "owner" }]
  })
  await app.createUser({ email: "nomad@example.com", password: PASSWORD })
  await app.createUser({ email: "cal@example.com", password: PASSWORD, workspaces: [{ workspaceId: studioA.workspaceId }] })
  dir = await mkdtemp(join(tmpdir(), "oauth-flow-"))
  const clip = await makeSpokenClip({ text: "Hello from the authorized app.", width: 320, height: 240, fps: 30, dir })
  files = await serveFiles({ "clip.mp4": { path: clip.path, contentType: "video/mp4" } })
})

afterAll(async () => {
  await files?.close()
  await app?.close()
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

/**
 * Plays the user for the SDK: loads the authorize URL, signs in if asked to, picks the workspace
 * and approves, then reads the code off the redirect to the client (never contacted).
 */
class TestProvider implements OAuthClientProvider {
  code: string | undefined
  info: OAuthClientInformationMixed | undefined
  tok: OAuthTokens | undefined
  verifier = ""
  readonly st = randomBytes(12).toString("hex")
  readonly authorizations: Array<URL> = []

  constructor(readonly browser: FormBrowser, readonly email: string, readonly workspaceName: string) {}

  get redirectUrl() {
    return "http://127.0.0.1:9/callback"
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "E2E <Assistant> & Co",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    }
  }

  state() {
    return this.st
  }
  clientInformation() {
    return this.info
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info
  }
  tokens() {
    return this.tok
  }
  saveTokens(tokens: OAuthTokens) {
    this.tok = tokens
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }

  async redirectToAuthorization(url: URL) {
    this.authorizations.push(url)
    let page = await this.browser.request(url)
    if (formsOf(page.html).some((f) => f.action === "/oauth/sign-in")) {
      const back = await this.browser.signIn(url, this.email)
      expect(back.startsWith("/oauth/authorize?")).toBe(true)
      page = await this.browser.request(back)
    }
    expect(page.response.status).toBe(200)
    const consent = formTo(page.html, "/oauth/authorize")
    const workspace = consent.choices.find(([, label]) => label.startsWith(this.workspaceName))
    if (workspace === undefined) throw new Error(`no workspace ${this.workspaceName} on the consent page`)
    const { response } = await this.browser.submit(consent, { workspace: workspace[0], decision: "approve" })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe(this.redirectUrl)
    expect(location.searchParams.get("error")).toBeNull()
    expect(location.searchParams.get("state")).toBe(this.st)
    expect(location.searchParams.get("iss")).toBe(app.baseUrl)
    this.code = location.searchParams.get("code")!
    expect(this.code).toMatch(/^rwac_/)
  }
}

const mcpUrl = () => new URL(`${app.baseUrl}/mcp`)

const connect = async (provider: TestProvider) => {
  const client = new Client({ name: "oauth-e2e", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }))
  return client
}

/** The SDK's whole first run: refused, authorizes through the pages, exchanges the code, connects. */
const authorize = async (provider: TestProvider) => {
  const refused = await connect(provider).then(() => null, (e: unknown) => e)
  expect(refused).toBeInstanceOf(UnauthorizedError)
  await new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }).finishAuth(provider.code!)
  return connect(provider)
}

/** A raw tools/list on /mcp with a bearer: the status and the challenge. */
const mcpWith = async (token: string) => {
  const response = await fetch(mcpUrl(), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
  })
  await response.text()
  return { status: response.status, challenge: response.headers.get("www-authenticate") }
}

const toolJson = (result: Awaited<ReturnType<Client["callTool"]>>) => {
  const content = result.content as Array<{ type: string; text: string }>
  return JSON.parse(content[0]!.text)
}

const form = (path: string, fields: Record<string, string>) =>
  fetch(`${app.baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields)
  })

const jsonOf = (response: Response): Promise<any> => response.json()

const register = (metadata: unknown) => call(app.baseUrl, "/oauth/register", { json: metadata })

const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

describe("discovery", () => {
  it("serves the protected resource metadata at the root and path-inserted, without redirects", async () => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await fetch(`${app.baseUrl}${path}`, { redirect: "manual" })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({
        resource: `${app.baseUrl}/mcp`,
        authorization_servers: [app.baseUrl],
        bearer_methods_supported: ["header"],
        resource_name: "Reelwright MCP server"
      })
    }
  })

  it("serves the authorization server metadata (RFC 8414) with exactly these fields", async () => {
    const response = await fetch(`${app.baseUrl}/.well-known/oauth-authorization-server`, { redirect: "manual" })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      issuer: app.baseUrl,
      authorization_endpoint: `${app.baseUrl}/oauth/authorize`,
      token_endpoint: `${app.baseUrl}/oauth/token`,
      registration_endpoint: `${app.baseUrl}/oauth/register`,
      client_id_metadata_document_supported: true,
      revocation_endpoint: `${app.baseUrl}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true
    })
  })

  it("answers CORS preflights on the endpoints clients call from a browser", async () => {
    const response = await fetch(`${app.baseUrl}/oauth/token`, {
      method: "OPTIONS",
      headers: { origin: "https://inspector.example", "access-control-request-method": "POST" }
    })
    expect(response.status).toBe(204)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
  })
})

describe("POST /oauth/register", () => {
  it("registers https and loopback http redirect URIs: 201, a client_id, the metadata echoed, no secret", async () => {
    for (const uri of ["https://app.example.com/callback", "http://localhost:8976/callback", "http://127.0.0.1/cb", "http://[::1]:3000/cb"]) {
      const answer = await register({ client_name: "Desk app", redirect_uris: [uri], client_uri: "https://app.example.com" })
      expect(answer.status).toBe(201)
      expect(answer.headers.get("cache-control")).toBe("no-store")
      expect(answer.body).toMatchObject({
        client_name: "Desk app",
        redirect_uris: [uri],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        client_uri: "https://app.example.com"
      })
      expect(answer.body.client_id).toMatch(/^rwc_/)
      expect(answer.body.client_id_issued_at).toEqual(expect.any(Number))
      expect(answer.body).not.toHaveProperty("client_secret")
    }
  })

  it("refuses http on a host other than loopback with invalid_redirect_uri, in the RFC shape", async () => {
    const answer = await register({ client_name: "Web app", redirect_uris: ["http://example.com/callback"] })
    expect(answer.status).toBe(400)
    expect(answer.body).toEqual({ error: "invalid_redirect_uri", error_description: expect.stringContaining("https") })
  })

  it("refuses a client secret method and a body that is not JSON", async () => {
    const secret = await register({ redirect_uris: ["https://app.example.com/cb"], token_endpoint_auth_method: "client_secret_basic" })
    expect(secret.status).toBe(400)
    expect(secret.body.error).toBe("invalid_client_metadata")
    const garbled = await call(app.baseUrl, "/oauth/register", { raw: "{\"redirect_uris\": [" })
    expect(garbled.status).toBe(400)
    expect(garbled.body.error).toBe("invalid_client_metadata")
  })

  it("keeps webhookUrl's stricter rule: http://localhost is refused on /v1 (unlike a redirect URI)", async () => {
    const answer = await call(app.baseUrl, "/v1/caption-videos", {
      token: studioA.token,
      json: { url: "https://media.example.com/talk.mp4", webhookUrl: "http://localhost/hook" }
    })
    expect(answer.status).toBe(400)
    expect(answer.body.error.details.field).toBe("webhookUrl")
  })
})

describe("the SDK client's whole flow", () => {
  it("authorizes, calls tools, rotates the refresh token, dies on reuse, authorizes again, and is revoked", async () => {
    // The first call, as a client without credentials sees it.
    const bare = await fetch(mcpUrl(), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} })
    })
    expect(bare.status).toBe(401)
    expect(bare.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource"`)

    const provider = new TestProvider(new FormBrowser(app.baseUrl), "bea@example.com", "Studio B")
    const client = await authorize(provider)
    expect(provider.info?.client_id).toMatch(/^rwc_/)
    expect(provider.authorizations[0]!.searchParams.get("code_challenge_method")).toBe("S256")
    expect(provider.authorizations[0]!.searchParams.get("resource")).toBe(`${app.baseUrl}/mcp`)
    expect(provider.tok?.access_token).toMatch(/^rwat_/)
    expect(provider.tok?.refresh_token).toMatch(/^rwrt_/)
    expect(provider.tok?.token_type).toBe("Bearer")
    expect(provider.tok?.expires_in).toBe(43_200)

    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["get_video", "create_caption_video"]))

    // Tools act in the workspace the user picked (Studio B), and spend its credits.
    const created = await client.callTool({ name: "create_caption_video", arguments: { url: files.url("clip.mp4") } })
    expect(created.isError).toBeFalsy()
    const video = toolJson(created)
    expect(video.status).toBe("processing")
    const deadline = Date.now() + 90_000
    let current = video
    while (current.status === "processing" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250))
      const got = await client.callTool({ name: "get_video", arguments: { id: video.id } })
      expect(got.isError).toBeFalsy()
      current = toolJson(got)
    }
    expect(current).toMatchObject({ id: video.id, status: "completed" })
    expect((await call(app.baseUrl, `/v1/videos/${video.id}`, { token: studioB.token })).status).toBe(200)
    expect((await call(app.baseUrl, `/v1/videos/${video.id}`, { token: studioA.token })).status).toBe(404)

    // An OAuth access token is for /mcp only.
    const onV1 = await call(app.baseUrl, "/v1/videos", { token: provider.tok!.access_token })
    expect(onV1.status).toBe(401)
    expect(onV1.body.error.message).toContain("/mcp")

    // Refresh rotates: a new access token and a new refresh token each time.
    const first = provider.tok!
    expect(await auth(provider, { serverUrl: mcpUrl() })).toBe("AUTHORIZED")
    const second = provider.tok!
    expect(second.refresh_token).not.toBe(first.refresh_token)
    expect(second.access_token).not.toBe(first.access_token)
    expect((await mcpWith(second.access_token)).status).toBe(200)
    await client.close()

    // Reusing the rotated-out refresh token is taken as theft: the grant and all its tokens die.
    const info = await discoverOAuthServerInfo(mcpUrl())
    const reuse = await refreshAuthorization(info.authorizationServerUrl, {
      metadata: info.authorizationServerMetadata!,
      clientInformation: provider.info!,
      refreshToken: first.refresh_token!,
      resource: mcpUrl()
    }).then(() => null, (e: unknown) => e)
    expect(reuse).toMatchObject({ errorCode: "invalid_grant" })
    const dead = await mcpWith(second.access_token)
    expect(dead.status).toBe(401)
    expect(dead.challenge).toContain("error=\"invalid_token\"")
    const refreshAfterReuse = await form("/oauth/token", {
      grant_type: "refresh_token",
      client_id: provider.info!.client_id,
      refresh_token: second.refresh_token!
    })
    expect(refreshAfterReuse.status).toBe(400)
    expect(await jsonOf(refreshAfterReuse)).toMatchObject({ error: "invalid_grant" })

    // A new authorization (the browser is still signed in: straight to consent), then revocation.
    provider.tok = undefined
    const again = await authorize(provider)
    expect(provider.authorizations).toHaveLength(2)
    expect((await again.listTools()).tools.length).toBeGreaterThan(0)
    await again.close()
    const revoked = await form("/oauth/revoke", {
      token: provider.tok!.refresh_token!,
      token_type_hint: "refresh_token",
      client_id: provider.info!.client_id
    })
    expect(revoked.status).toBe(200)
    expect(revoked.headers.get("cache-control")).toBe("no-store")
    expect((await mcpWith(provider.tok!.access_token)).status).toBe(401)
  })
})

/** Registers a client and gets a token pair for `email`'s `workspaceName` through the pages. */
const tokensFor = async (email: string, workspaceName: string) => {
  const provider = new TestProvider(new FormBrowser(app.baseUrl), email, workspaceName)
  const client = await authorize(provider)
  await client.close()
  return provider
}

describe("tokens are scoped to one workspace", () => {
  it("answers isError not-found for another workspace's video, and a workspace-A token never reaches B", async () => {
    const theirs = await call(app.baseUrl, "/v1/caption-videos", { token: studioB.token, json: { url: files.url("clip.mp4") } })
    expect(theirs.status).toBe(200)
    const provider = await tokensFor("ada@example.com", "Studio A")
    const client = await connect(provider)
    const result = await client.callTool({ name: "get_video", arguments: { id: theirs.body.id } })
    expect(result.isError).toBe(true)
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/No video/)
    await client.close()
  })
})

describe("GET /oauth/authorize refusals", () => {
  let client: { client_id: string }
  const base = () => {
    const { challenge } = pkcePair()
    return {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: "https://app.example.com/callback",
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s1"
    }
  }
  const authorizeGet = (params: Record<string, string>) =>
    fetch(`${app.baseUrl}/oauth/authorize?${new URLSearchParams(params)}`, { redirect: "manual" })

  beforeAll(async () => {
    client = (await register({ client_name: "Refusals", redirect_uris: ["https://app.example.com/callback"] })).body
  })

  it("shows a 400 page, and never redirects, for a redirect URI the client did not register", async () => {
    const response = await authorizeGet({ ...base(), redirect_uri: "https://evil.example/callback" })
    expect(response.status).toBe(400)
    expect(response.headers.get("location")).toBeNull()
    expect(response.headers.get("content-type")).toContain("text/html")
    expect(await response.text()).toContain("not one the app registered")
  })

  it("shows a 400 page for an unknown client", async () => {
    const response = await authorizeGet({ ...base(), client_id: "rwc_nobody" })
    expect(response.status).toBe(400)
    expect(response.headers.get("location")).toBeNull()
  })

  it("sends PKCE and resource failures back to the registered redirect URI, with state and iss", async () => {
    for (const [params, error] of [
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge_method: "" }, "invalid_request"],
      [{ resource: "https://elsewhere.example/mcp" }, "invalid_target"],
      [{ response_type: "token" }, "unsupported_response_type"]
    ] as const) {
      const response = await authorizeGet({ ...base(), ...params })
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get("location")!)
      expect(`${location.origin}${location.pathname}`).toBe("https://app.example.com/callback")
      expect(location.searchParams.get("error")).toBe(error)
      expect(location.searchParams.get("state")).toBe("s1")
      expect(location.searchParams.get("iss")).toBe(app.baseUrl)
    }
  })

  it("sends the sign-in page with the page headers: no framing, no caching, no referrer", async () => {
    const response = await authorizeGet(base())
    expect(response.status).toBe(200)
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("referrer-policy")).toBe("no-referrer")
    expect(response.headers.getSetCookie().join("\n")).toMatch(/rw_signin_csrf=[^;]+;.*HttpOnly/i)
    expect(await response.text()).toContain("Refusals")
  })

  it("escapes the client's name on the consent page", async () => {
    const named = (await register({ client_name: "<script>alert(1)</script>", redirect_uris: ["https://app.example.com/callback"] })).body
    const browser = new FormBrowser(app.baseUrl)
    const url = `/oauth/authorize?${new URLSearchParams({ ...base(), client_id: named.client_id })}`
    const back = await browser.signIn(url, "ada@example.com")
    const { html } = await browser.request(back)
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(html).not.toContain("<script>")
    expect(html).toContain("app.example.com")
  })

  it("tells a user without a workspace so, and refuses an approval for a workspace that is not theirs", async () => {
    const browser = new FormBrowser(app.baseUrl)
    const url = `/oauth/authorize?${new URLSearchParams(base())}`
    const { html } = await browser.request(await browser.signIn(url, "nomad@example.com"))
    expect(html).toContain("not a member of any workspace")
    expect(html).toMatch(/value="approve" disabled/)
    const consent = formTo(html, "/oauth/authorize")
    expect(consent.choices).toEqual([])
    const forced = await browser.submit(consent, { workspace: studioA.workspaceId, decision: "approve" })
    expect(forced.response.status).toBe(400)
    expect(forced.response.headers.get("location")).toBeNull()
  })

  it("refuses a consent answer without the session's CSRF token", async () => {
    const browser = new FormBrowser(app.baseUrl)
    const url = `/oauth/authorize?${new URLSearchParams(base())}`
    const { html } = await browser.request(await browser.signIn(url, "ada@example.com"))
    const consent = formTo(html, "/oauth/authorize")
    const forged = await browser.submit(consent, { csrf: "forged", workspace: studioA.workspaceId, decision: "approve" })
    expect(forged.response.status).toBe(403)
    expect(forged.response.headers.get("location")).toBeNull()
  })

  it("sends a declined consent back as access_denied", async () => {
    const browser = new FormBrowser(app.baseUrl)
    const url = `/oauth/authorize?${new URLSearchParams(base())}`
    const { html } = await browser.request(await browser.signIn(url, "ada@example.com"))
    const { response } = await browser.submit(formTo(html, "/oauth/authorize"), { decision: "deny" })
    expect(response.status).toBe(302)
    const location = new URL(response.headers.get("location")!)
    expect(location.searchParams.get("error")).toBe("access_denied")
    expect(location.searchParams.get("state")).toBe("s1")
  })
})

describe("sign-in", () => {
  it("sets an HttpOnly, SameSite=Lax session cookie on Path=/ (not Secure on http)", async () => {
    const browser = new FormBrowser(app.baseUrl)
    const { html } = await browser.request("/account/connections")
    const response = await fetch(`${app.baseUrl}/oauth/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: `rw_signin_csrf=${browser.cookie("rw_signin_csrf")}`
      },
      body: new URLSearchParams({ ...formTo(html, "/oauth/sign-in").fields, email: "ADA@example.com", password: PASSWORD })
    })
    expect(response.status).toBe(303)
    expect(response.headers.get("location")).toBe("/account/connections")
    const session = response.headers.getSetCookie().find((c) => c.startsWith("rw_session="))!
    expect(session).toMatch(/HttpOnly/i)
    expect(session).toMatch(/SameSite=Lax/i)
    expect(session).toMatch(/Path=\//)
    expect(session).not.toMatch(/Secure/i)
  })

  it("never redirects off-site after signing in", async () => {
    for (const returnTo of ["//evil.example/x", "https://evil.example/", "/\\evil.example", "/v1/videos"]) {
      const browser = new FormBrowser(app.baseUrl)
      const { html } = await browser.request("/account/connections")
      const { response } = await browser.submit(formTo(html, "/oauth/sign-in"), {
        return_to: returnTo,
        email: "ada@example.com",
        password: PASSWORD
      })
      expect(response.status).toBe(303)
      expect(response.headers.get("location")).toBe("/account/connections")
    }
  })

  it("refuses a sign-in without the form's CSRF cookie", async () => {
    const response = await form("/oauth/sign-in", { csrf: "x".repeat(43), email: "ada@example.com", password: PASSWORD })
    expect(response.status).toBe(403)
    expect(response.headers.getSetCookie().some((c) => c.startsWith("rw_session="))).toBe(false)
  })

  it("throttles guesses at one account: 429 with Retry-After after 10 attempts", async () => {
    const browser = new FormBrowser(app.baseUrl)
    const { html } = await browser.request("/account/connections")
    const signInForm = formTo(html, "/oauth/sign-in")
    const statuses: Array<number> = []
    let retryAfter: string | null = null
    for (let i = 0; i < 12; i++) {
      const { response } = await browser.submit(signInForm, { email: "cal@example.com", password: `wrong guess ${i}` })
      statuses.push(response.status)
      retryAfter ??= response.headers.get("retry-after")
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429])
    expect(Number(retryAfter)).toBeGreaterThan(0)
    // Even the right password waits out the window.
    expect((await browser.submit(signInForm, { email: "cal@example.com", password: PASSWORD })).response.status).toBe(429)
  })
})

describe("POST /oauth/token", () => {
  it("answers tokens as JSON with no-store and no-cache", async () => {
    const provider = await tokensFor("ada@example.com", "Studio A")
    const response = await form("/oauth/token", {
      grant_type: "refresh_token",
      client_id: provider.info!.client_id,
      refresh_token: provider.tok!.refresh_token!
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toContain("application/json")
    expect(response.headers.get("cache-control")).toBe("no-store")
    expect(response.headers.get("pragma")).toBe("no-cache")
    const body = await jsonOf(response)
    expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(["access_token", "expires_in", "refresh_token", "token_type"]))
  })

  it("answers failures in the RFC 6749 shape: invalid_grant 400, invalid_client 401, unsupported_grant_type", async () => {
    const client = (await register({ redirect_uris: ["https://app.example.com/cb"] })).body
    const grant = await form("/oauth/token", {
      grant_type: "authorization_code",
      client_id: client.client_id,
      code: "rwac_unknown",
      code_verifier: pkcePair().verifier,
      redirect_uri: "https://app.example.com/cb"
    })
    expect(grant.status).toBe(400)
    expect(grant.headers.get("cache-control")).toBe("no-store")
    expect(await jsonOf(grant)).toEqual({ error: "invalid_grant", error_description: expect.any(String) })
    const unknownClient = await form("/oauth/token", { grant_type: "refresh_token", client_id: "rwc_nobody", refresh_token: "rwrt_x" })
    expect(unknownClient.status).toBe(401)
    expect((await jsonOf(unknownClient)).error).toBe("invalid_client")
    const password = await form("/oauth/token", { grant_type: "password", client_id: client.client_id })
    expect(password.status).toBe(400)
    expect((await jsonOf(password)).error).toBe("unsupported_grant_type")
    const json = await call(app.baseUrl, "/oauth/token", { json: { grant_type: "refresh_token" } })
    expect(json.status).toBe(400)
    expect(json.body.error).toBe("invalid_request")
  })
})

describe("POST /oauth/revoke", () => {
  it("answers 200 for a token it does not know, and invalid_request without a token", async () => {
    expect((await form("/oauth/revoke", { token: "rwat_not_a_token" })).status).toBe(200)
    const missing = await form("/oauth/revoke", {})
    expect(missing.status).toBe(400)
    expect((await jsonOf(missing)).error).toBe("invalid_request")
  })
})

/** The same app, identifying itself by the URL of its client metadata document instead of registering. */
class MetadataDocumentProvider extends TestProvider {
  constructor(browser: FormBrowser, email: string, workspaceName: string, readonly clientMetadataUrl: string) {
    super(browser, email, workspaceName)
  }
}

describe("client metadata documents", () => {
  // A user of their own: the others' sign-ins are throttled per account by the time this runs.
  beforeAll(async () => {
    await app.createUser({ email: "dora@example.com", password: PASSWORD, workspaces: [{ workspaceId: studioA.workspaceId }] })
  })

  it("the SDK uses its https document URL as client_id: no registration, consent, tokens, tools", async () => {
    const receiver = await startHttpsReceiver()
    try {
      const documentUrl = `${receiver.url}/oauth/client.json`
      const provider = new MetadataDocumentProvider(new FormBrowser(app.baseUrl), "dora@example.com", "Studio A", documentUrl)
      receiver.setBehaviour({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...metadataDocument(documentUrl, { client_name: "Doc Assistant" }), redirect_uris: [provider.redirectUrl] })
      })
      const client = await authorize(provider)
      expect(provider.info?.client_id).toBe(documentUrl)
      expect((await client.listTools()).tools.length).toBeGreaterThan(0)
      await client.close()
      // Fetched once for the consent page, its answer and the token request: the cache served the rest.
      expect(receiver.requests.map((r) => [r.method, r.path])).toEqual([["GET", "/oauth/client.json"]])
      expect(receiver.requests[0]!.headers.accept).toBe("application/json")
      // The connected-apps page names it by its document.
      const { html } = await provider.browser.request("/account/connections")
      expect(html).toContain("Doc Assistant")
    } finally {
      await receiver.close()
    }
  })

  it("serves a document over http on loopback (the test switch): the consent page names the app and its site", async () => {
    const documents = await startDocumentServer()
    try {
      const clientId = `${documents.url}/apps/desk.json`
      const redirectUri = "https://app.example.com/callback"
      documents.serve("/apps/desk.json", json(metadataDocument(clientId, { client_name: "Desk <App>", redirect_uris: [redirectUri] })))
      const { challenge, verifier } = pkcePair()
      const params = { response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "s9" }
      const browser = new FormBrowser(app.baseUrl)
      const { html } = await browser.request(await browser.signIn(`/oauth/authorize?${new URLSearchParams(params)}`, "dora@example.com"))
      expect(html).toContain("<strong id=\"client-name\">Desk &lt;App&gt;</strong>")
      expect(html).toContain(`<strong id="client-host">${new URL(documents.url).host}</strong>`)
      const consent = formTo(html, "/oauth/authorize")
      const studio = consent.choices.find(([, label]) => label.startsWith("Studio A"))!
      const { response } = await browser.submit(consent, { workspace: studio[0], decision: "approve" })
      expect(response.status).toBe(302)
      const location = new URL(response.headers.get("location")!)
      expect(`${location.origin}${location.pathname}`).toBe(redirectUri)
      const token = await form("/oauth/token", {
        grant_type: "authorization_code",
        client_id: clientId,
        code: location.searchParams.get("code")!,
        code_verifier: verifier,
        redirect_uri: redirectUri
      })
      expect(token.status).toBe(200)
      expect((await mcpWith((await jsonOf(token)).access_token)).status).toBe(200)
    } finally {
      await documents.close()
    }
  })

  it("shows a 400 page, never a redirect, for a document that names another client_id", async () => {
    const documents = await startDocumentServer()
    try {
      const clientId = `${documents.url}/apps/impostor.json`
      documents.serve("/apps/impostor.json", json(metadataDocument("https://trusted.example/client.json", { redirect_uris: ["https://app.example.com/callback"] })))
      const response = await fetch(`${app.baseUrl}/oauth/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: "https://app.example.com/callback",
        code_challenge: pkcePair().challenge,
        code_challenge_method: "S256"
      })}`, { redirect: "manual" })
      expect(response.status).toBe(400)
      expect(response.headers.get("location")).toBeNull()
      const page = await response.text()
      expect(page).toContain("not the URL it is published at")
      expect(page).toContain("developer must fix it")
    } finally {
      await documents.close()
    }
  })
})

// Last: it spends this process's registration allowance.
describe("registration throttle", () => {
  it("answers 429 with Retry-After once an address has registered 20 clients in an hour", async () => {
    const statuses: Array<number> = []
    let last: Awaited<ReturnType<typeof register>> | undefined
    for (let i = 0; i < 25; i++) {
      last = await register({ client_name: `Burst ${i}`, redirect_uris: ["https://app.example.com/cb"] })
      statuses.push(last.status)
    }
    const firstRefusal = statuses.indexOf(429)
    expect(firstRefusal).toBeGreaterThan(0)
    expect(statuses.slice(0, firstRefusal).every((s) => s === 201)).toBe(true)
    expect(statuses.slice(firstRefusal).every((s) => s === 429)).toBe(true)
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(last!.body).toEqual({ error: "temporarily_unavailable", error_description: expect.any(String) })
  })
})
