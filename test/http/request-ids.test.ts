// Every answer carries X-Request-Id, and an `{"error":{…}}` body the same id as `error.requestId`. A
// client's own id is taken only where the operator trusts the proxy in front (TRUST_PROXY_REQUEST_ID).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { call } from "../support/http-client.ts"
import { rawExchange } from "../support/raw-http.ts"
import { startApp, type TestApp } from "../support/app.ts"

const GENERATED = /^[0-9a-f]{16}$/

describe("request ids, with no trusted proxy", () => {
  let app: TestApp
  let token: string

  beforeAll(async () => {
    app = await startApp({ worker: false })
    token = (await app.createWorkspace()).token
  })
  afterAll(() => app?.close())

  it("answers a success with a fresh id per request", async () => {
    const first = await call(app.baseUrl, "/v1/workspace", { token })
    const second = await call(app.baseUrl, "/health")
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(first.headers.get("x-request-id")).toMatch(GENERATED)
    expect(second.headers.get("x-request-id")).toMatch(GENERATED)
    expect(first.headers.get("x-request-id")).not.toBe(second.headers.get("x-request-id"))
  })

  it("puts the header's id in every error body", async () => {
    const answers = [
      await call(app.baseUrl, "/v1/videos"),
      await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: 42 } }),
      await call(app.baseUrl, "/v1/videos/00000000-0000-4000-8000-000000000000", { token }),
      await call(app.baseUrl, "/v1/no-such-route?secret=1", { token }),
      await call(app.baseUrl, "/v1/videos", { token, method: "DELETE" }),
      // Refused by the guard in front of the API, before a byte of the body is read.
      await fetch(`${app.baseUrl}/v1/caption-videos`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
        body: "x"
      }).then(async (r) => ({ status: r.status, headers: r.headers, body: await r.json() }))
    ]
    expect(answers.map((a) => a.status)).toEqual([401, 400, 404, 404, 405, 415])
    for (const answer of answers) {
      expect(answer.body.error.requestId).toMatch(GENERATED)
      expect(answer.body.error.requestId).toBe(answer.headers.get("x-request-id"))
    }
  })

  it("gives an answer written before any request exists an id too", async () => {
    const port = Number(new URL(app.baseUrl).port)
    const answer = await rawExchange(port, [`GET /v1/videos HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`])
    expect(answer.status).toBe(431)
    expect(answer.headers["x-request-id"]).toMatch(GENERATED)
    expect(answer.body.error.requestId).toBe(answer.headers["x-request-id"])
  })

  it("ignores an id the client sends: a client must not choose the ids in the logs", async () => {
    const answer = await call(app.baseUrl, "/v1/videos", { headers: { "x-request-id": "chosen-by-client", "fly-request-id": "chosen-too" } })
    expect(answer.headers.get("x-request-id")).toMatch(GENERATED)
    expect(answer.body.error.requestId).toBe(answer.headers.get("x-request-id"))
  })
})

describe("request ids behind a trusted proxy", () => {
  let app: TestApp

  beforeAll(async () => {
    vi.stubEnv("TRUST_PROXY_REQUEST_ID", "true")
    app = await startApp({ worker: false })
  })
  afterAll(async () => {
    vi.unstubAllEnvs()
    await app?.close()
  })

  it("takes Fly-Request-Id, else X-Request-Id, when it looks like an id", async () => {
    const fly = await call(app.baseUrl, "/v1/videos", { headers: { "fly-request-id": "01J5ABCDEF-iad", "x-request-id": "other" } })
    expect(fly.headers.get("x-request-id")).toBe("01J5ABCDEF-iad")
    expect(fly.body.error.requestId).toBe("01J5ABCDEF-iad")
    const plain = await call(app.baseUrl, "/health", { headers: { "x-request-id": "req:42.a_b" } })
    expect(plain.headers.get("x-request-id")).toBe("req:42.a_b")
  })

  it("makes its own for an id that is too long or holds other characters", async () => {
    for (const given of ["x".repeat(129), "has space", "semi;colon", "<script>"]) {
      const answer = await call(app.baseUrl, "/health", { headers: { "x-request-id": given } })
      expect(answer.headers.get("x-request-id")).toMatch(GENERATED)
    }
  })
})
