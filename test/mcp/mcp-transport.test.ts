// /mcp as an HTTP resource: the 401 challenges that start the OAuth flow, DNS rebinding protection
// (Host and Origin checked before the token), and what a stateless server answers to GET.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rebindingProblem } from "../../adapters/mcp/rebinding-guard.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { INITIALIZE, rawPost } from "./mcp-client.ts"

let app: TestApp
let token: string
let host: string

beforeAll(async () => {
  app = await startApp({ worker: false })
  token = (await app.createWorkspace()).token
  host = new URL(app.baseUrl).host
})

afterAll(async () => {
  await app?.close()
})

const expectJsonRpcError = (body: any) => {
  expect(body.jsonrpc).toBe("2.0")
  expect(body.id).toBeNull()
  expect(typeof body.error.code).toBe("number")
  expect(body.error.message.length).toBeGreaterThan(0)
}

describe("authentication on /mcp", () => {
  it("answers 401 with the resource metadata challenge when no token is sent", async () => {
    const answer = await rawPost(app.baseUrl, { host }, INITIALIZE)
    expect(answer.status).toBe(401)
    expect(answer.headers["www-authenticate"]).toBe(
      `Bearer resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource"`
    )
    expectJsonRpcError(answer.body)
  })

  it("adds error=\"invalid_token\" for an unknown API token and an unknown OAuth access token", async () => {
    for (const bad of ["rw_not_a_real_token", "rwat_not_a_real_access_token"]) {
      const answer = await rawPost(app.baseUrl, { host, authorization: `Bearer ${bad}` }, INITIALIZE)
      expect(answer.status).toBe(401)
      const challenge = String(answer.headers["www-authenticate"])
      expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="/)
      expect(challenge).toContain(`resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource"`)
      expectJsonRpcError(answer.body)
    }
  })

  it("serves an API token", async () => {
    const answer = await rawPost(app.baseUrl, { host, authorization: `Bearer ${token}` }, INITIALIZE)
    expect(answer.status).toBe(200)
    expect(answer.body.result.serverInfo.name).toBe("reelwright")
    expect(answer.body.result.capabilities.tools).toBeDefined()
  })
})

describe("DNS rebinding protection", () => {
  it("refuses a foreign Origin with 403, before looking at the token", async () => {
    for (const headers of [{ authorization: `Bearer ${token}` }, {}]) {
      const answer = await rawPost(app.baseUrl, { host, origin: "http://evil.example.com", ...headers }, INITIALIZE)
      expect(answer.status).toBe(403)
      expectJsonRpcError(answer.body)
    }
  })

  it("refuses a foreign Host", async () => {
    const answer = await rawPost(app.baseUrl, { host: "evil.example.com", authorization: `Bearer ${token}` }, INITIALIZE)
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(answer.status).toBeLessThan(500)
    expectJsonRpcError(answer.body)
  })

  it("serves any loopback name and port when the base URL is loopback, with or without an Origin", async () => {
    const port = new URL(app.baseUrl).port
    for (const headers of [
      { host: `localhost:${port}`, origin: `http://localhost:${port}` },
      { host: "localhost:9999", origin: "http://[::1]:3000" },
      { host: `127.0.0.1:${port}` }
    ]) {
      const answer = await rawPost(app.baseUrl, { ...headers, authorization: `Bearer ${token}` }, INITIALIZE)
      expect(answer.status).toBe(200)
    }
  })

  it("on a public base URL, allows only its own host and origin", () => {
    const base = "https://videos.example.com"
    expect(rebindingProblem({ host: "videos.example.com" }, base)).toBeNull()
    expect(rebindingProblem({ host: "videos.example.com:443", origin: "https://videos.example.com" }, base)).toBeNull()
    expect(rebindingProblem({ host: "localhost:8080" }, base)).toContain("Host")
    expect(rebindingProblem({ host: "videos.example.com:8443" }, base)).toContain("Host")
    expect(rebindingProblem({ host: "evil.example.com@videos.example.com" }, base)).toContain("Host")
    expect(rebindingProblem({}, base)).toContain("Host")
    expect(rebindingProblem({ host: "videos.example.com", origin: "http://videos.example.com" }, base)).toContain("origin")
    expect(rebindingProblem({ host: "videos.example.com", origin: "http://localhost:3000" }, base)).toContain("origin")
    expect(rebindingProblem({ host: "videos.example.com", origin: "null" }, base)).toContain("origin")
  })
})

describe("a stateless server", () => {
  it("answers 405 to GET and DELETE, which would open an SSE stream or end a session", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${app.baseUrl}/mcp`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: "application/json, text/event-stream" }
      })
      expect(response.status).toBe(405)
      expect(response.headers.get("allow")).toBe("POST")
      expectJsonRpcError(await response.json())
    }
  })

  it("keeps requests of different workspaces with the same id apart when they run at once", async () => {
    const other = (await app.createWorkspace()).token
    const call = (bearer: string, id: number, name: string, args: Record<string, unknown> = {}) =>
      rawPost(app.baseUrl, { host, authorization: `Bearer ${bearer}` }, { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })
    const made = await call(token, 1, "create_webhook_secret", {})
    expect(made.body.result.isError).toBeUndefined()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i % 2 === 0 ? token : other, 7, "list_webhook_secrets")))
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200)
      expect(answer.body.id).toBe(7)
      expect(answer.body.result.structuredContent.data).toHaveLength(i % 2 === 0 ? 1 : 0)
    })
  })

  it("answers a batch with each answer under its request's id, and a notification alone with 202", async () => {
    const authorization = `Bearer ${token}`
    const batch = await rawPost(app.baseUrl, { host, authorization }, [
      { jsonrpc: "2.0", id: "a", method: "ping" },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" }
    ])
    expect(batch.status).toBe(200)
    expect(batch.body.map((answer: any) => answer.id)).toEqual(["a", 2])
    expect(batch.body[1].result.tools.length).toBeGreaterThan(0)
    const notification = await rawPost(app.baseUrl, { host, authorization }, { jsonrpc: "2.0", method: "notifications/initialized" })
    expect(notification.status).toBe(202)
  })

  it("answers a lone tool call (run in the request's fiber) as the Server answers the same call in a batch", async () => {
    const authorization = `Bearer ${token}`
    const call = (id: string | number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_art_styles", arguments: {} } })
    const alone = await rawPost(app.baseUrl, { host, authorization }, call("lone-1"))
    const batch = await rawPost(app.baseUrl, { host, authorization }, [call(9), { jsonrpc: "2.0", id: "p", method: "ping" }])
    expect(alone.status).toBe(200)
    expect(alone.body).toEqual({ jsonrpc: "2.0", id: "lone-1", result: batch.body[0].result })
    expect(batch.body[0].id).toBe(9)
    expect(alone.body.result.structuredContent.data.length).toBeGreaterThan(0)
    // A call the Server's request check refuses is answered by the Server: its error, naming the field.
    const malformed = await rawPost(app.baseUrl, { host, authorization }, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: 5 } })
    expect(malformed.body.id).toBe(3)
    expect(malformed.body.result).toBeUndefined()
    expect(malformed.body.error.message).toMatch(/"name"[\s\S]*expected string/)
  })

  it("answers a bad JSON body with a JSON-RPC parse error, not a crash", async () => {
    const response = await fetch(`${app.baseUrl}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{not json"
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as any).error.code).toBe(-32700)
  })
})
