// Per-token rate limits on a real server: a burst past a token's budget is a 429 with Retry-After in
// the /v1 error shape (a JSON-RPC error on /mcp), other tokens and the other budget are untouched,
// /admin is not limited, and a spent budget refills with time. The settings come from the environment.
import { ConfigProvider, Effect } from "effect"
import { setTimeout as sleep } from "node:timers/promises"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_RATE_LIMITS } from "../../adapters/http/token-rate-limits.ts"
import { roleSettings } from "../../src/roles.ts"
import { approveAuthorization } from "../../src/ops/oauth/approve-authorization.ts"
import { checkAuthorizationRequest } from "../../src/ops/oauth/authorization-request.ts"
import { aClient, authorizeParams, aWorkspace, exchangeCode, newVerifier, userIdOf } from "../oauth/fixture.ts"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { type Answer, call } from "../support/http-client.ts"

const MCP_HEADERS = { accept: "application/json, text/event-stream" }
const listArtStyles = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_art_styles", arguments: {} } }

const mcpCall = (app: TestApp, token: string) =>
  call(app.baseUrl, "/mcp", { token, json: listArtStyles, headers: MCP_HEADERS })

/** Sends `count` requests at once and answers their statuses, sorted. */
const burst = async (count: number, send: () => Promise<Answer>): Promise<ReadonlyArray<Answer>> =>
  (await Promise.all(Array.from({ length: count }, send))).sort((a, b) => a.status - b.status)

/** An OAuth access token for this app's /mcp, through the flow's own use cases. */
const oauthAccessToken = (app: TestApp, ownerEmail: string): Promise<string> =>
  app.runtime.runPromise(Effect.gen(function*() {
    const resource = `${app.baseUrl}/mcp`
    const { workspaceId } = yield* aWorkspace(ownerEmail)
    const userId = yield* userIdOf(ownerEmail)
    const clientId = yield* aClient()
    const verifier = newVerifier()
    const request = yield* checkAuthorizationRequest(authorizeParams(clientId, verifier, { resource })).pipe(Effect.orDie)
    const { redirectTo } = yield* approveAuthorization(request, userId, workspaceId).pipe(Effect.orDie)
    const code = new URL(redirectTo).searchParams.get("code")!
    const tokens = yield* exchangeCode(clientId, code, verifier, { resource }).pipe(Effect.orDie)
    return tokens.access_token
  }))

describe("a spent budget", () => {
  let app: TestApp

  beforeAll(async () => {
    // Refills take minutes: nothing refills while the test runs.
    app = await startApp({
      worker: false,
      rateLimits: { reads: { perSecond: 0.01, burst: 3 }, writes: { perSecond: 0.01, burst: 2 } }
    })
  })

  afterAll(async () => {
    await app?.close()
  })

  it("answers 429 with Retry-After and the /v1 error shape, and counts down in RateLimit headers", async () => {
    const { token } = await app.createWorkspace()
    const answers = await burst(4, () => call(app.baseUrl, "/v1/voices", { token }))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429])
    expect(answers.slice(0, 3).map((a) => a.headers.get("ratelimit-remaining")).sort()).toEqual(["0", "1", "2"])
    expect(answers[0]!.headers.get("ratelimit-limit")).toBe("3")
    const refused = answers[3]!
    expect(refused.headers.get("retry-after")).toBe("100")
    expect(refused.headers.get("ratelimit-remaining")).toBe("0")
    expect(refused.body).toEqual({
      error: {
        code: "rate_limited",
        message: expect.stringContaining("Retry in 100 s"),
        details: { retryAfterSeconds: 100 },
        requestId: refused.headers.get("x-request-id")
      }
    })
  })

  it("leaves other tokens, the writes budget and /admin alone", async () => {
    const { token } = await app.createWorkspace()
    const other = await app.createWorkspace()
    await burst(3, () => call(app.baseUrl, "/v1/videos", { token }))
    expect((await call(app.baseUrl, "/v1/videos", { token })).status).toBe(429)
    expect((await call(app.baseUrl, "/v1/videos", { token: other.token })).status).toBe(200)
    // Writes have a budget of their own: an invalid create still counts against it.
    const writes = await burst(3, () => call(app.baseUrl, "/v1/caption-templates", { token, json: {} }))
    expect(writes.map((a) => a.status)).toEqual([400, 400, 429])
    for (let i = 0; i < 4; i++) {
      const created = await call(app.baseUrl, "/admin/workspaces", {
        token: ADMIN_TOKEN,
        json: { name: `Admin ${i}`, ownerEmail: "ops@example.com", plan: "pro", credits: 0 }
      })
      expect(created.status).toBe(200)
    }
  })

  it("limits /mcp per API token and per OAuth access token, answering a JSON-RPC error", async () => {
    const { token } = await app.createWorkspace()
    const accessToken = await oauthAccessToken(app, "assistant@example.com")
    for (const bearer of [token, accessToken]) {
      const answers = await burst(3, () => mcpCall(app, bearer))
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
      expect(answers[0]!.body.result.isError).toBeUndefined()
      const refused = answers[2]!
      expect(refused.headers.get("retry-after")).toBe("100")
      expect(refused.body).toEqual({
        jsonrpc: "2.0",
        id: null,
        error: { code: -32000, message: expect.stringContaining("Retry in 100 s") }
      })
    }
  })
})

describe("a budget that refills", () => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp({ worker: false, rateLimits: { reads: { perSecond: 2, burst: 2 }, writes: null } })
  })

  afterAll(async () => {
    await app?.close()
  })

  it("allows requests again once Retry-After has passed", async () => {
    const { token } = await app.createWorkspace()
    const answers = await burst(3, () => call(app.baseUrl, "/v1/art-styles", { token }))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
    const wait = Number(answers[2]!.headers.get("retry-after"))
    expect(wait).toBe(1)
    await sleep(wait * 1000)
    expect((await call(app.baseUrl, "/v1/art-styles", { token })).status).toBe(200)
  })

  it("does not limit a budget that is off", async () => {
    const { token } = await app.createWorkspace()
    const answers = await burst(10, () => call(app.baseUrl, "/v1/caption-templates", { token, json: {} }))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(400))
    expect(answers[0]!.headers.get("ratelimit-limit")).toBeNull()
  })
})

describe("rate limit settings", () => {
  const settingsFrom = (env: Record<string, string>) =>
    Effect.runPromise(Effect.withConfigProvider(roleSettings, ConfigProvider.fromMap(new Map(Object.entries(env)))))

  it("default to the documented budgets", async () => {
    expect((await settingsFrom({})).rateLimits).toEqual(DEFAULT_RATE_LIMITS)
  })

  it("are read from the environment, a rate of 0 switching a budget off", async () => {
    const { rateLimits } = await settingsFrom({
      RATE_LIMIT_PER_SECOND: "0",
      RATE_LIMIT_WRITES_PER_SECOND: "0.5",
      RATE_LIMIT_WRITES_BURST: "3"
    })
    expect(rateLimits).toEqual({ reads: null, writes: { perSecond: 0.5, burst: 3 } })
  })

  it("refuse a burst below 1", async () => {
    await expect(settingsFrom({ RATE_LIMIT_BURST: "0" })).rejects.toThrow(/at least 1/)
  })
})
