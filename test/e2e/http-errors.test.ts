// Every refusal of the HTTP API: the status, the one JSON error shape, the field it names, and
// that nothing is left behind (no record, no credit spent).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { request as httpRequest } from "node:http"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { call } from "../support/http-client.ts"

let app: TestApp
let token: string
let freeToken: string
let otherToken: string

const source = "https://media.example.com/talk.mp4"

beforeAll(async () => {
  // No worker: these tests only look at what the API accepts and records.
  app = await startApp({ worker: false })
  token = (await app.createWorkspace({ credits: 100 })).token
  freeToken = (await app.createWorkspace({ plan: "free" })).token
  otherToken = (await app.createWorkspace()).token
})

afterAll(async () => {
  await app?.close()
})

const expectError = (answer: { status: number; body: any }, status: number, field?: string) => {
  expect(answer.status).toBe(status)
  expect(answer.body).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) })
  if (field !== undefined) expect(answer.body.error.details.field).toBe(field)
}

const videoCount = async (t: string) => (await call(app.baseUrl, "/v1/videos?limit=100", { token: t })).body.data.length

describe("authentication", () => {
  it("answers 401 with a JSON body for a missing, unknown or revoked token", async () => {
    expectError(await call(app.baseUrl, "/v1/videos"), 401)
    expectError(await call(app.baseUrl, "/v1/videos", { token: "rw_not_a_real_token" }), 401)
    const issued = await call(app.baseUrl, "/admin/workspaces", {
      token: ADMIN_TOKEN,
      json: { name: "Revoked", ownerEmail: "r@example.com" }
    })
    expect(issued.status).toBe(200)
    expect((await call(app.baseUrl, "/v1/videos", { token: issued.body.token })).status).toBe(200)
    const tokens = await call(app.baseUrl, `/admin/workspaces/${issued.body.workspaceId}/tokens`, { token: ADMIN_TOKEN, json: {} })
    const revoked = await call(app.baseUrl, `/admin/tokens/${encodeURIComponent(issued.body.token)}`, { token: ADMIN_TOKEN, method: "DELETE" })
    expect(revoked.status).toBe(200)
    expectError(await call(app.baseUrl, "/v1/videos", { token: issued.body.token }), 401)
    expect((await call(app.baseUrl, "/v1/videos", { token: tokens.body.token })).status).toBe(200)
  })

  it("never lets a workspace token reach admin operations", async () => {
    expectError(await call(app.baseUrl, "/admin/workspaces", { token, json: { name: "x", ownerEmail: "x@example.com" } }), 401)
  })
})

describe("POST /v1/caption-videos input", () => {
  const cases: Array<[string, unknown, string]> = [
    ["an http webhookUrl", { url: source, webhookUrl: "http://example.com/hook" }, "webhookUrl"],
    ["a localhost http webhookUrl", { url: source, webhookUrl: "http://localhost/hook" }, "webhookUrl"],
    ["a webhookUrl over 1024 characters", { url: source, webhookUrl: `https://example.com/${"a".repeat(1010)}` }, "webhookUrl"],
    ["an unsupported frame rate", { url: source, render: { frameRate: 24 } }, "render.frameRate"],
    ["an unknown render format", { url: source, render: { format: "4k" } }, "render.format"],
    ["a missing url", { templateId: -1 }, "url"],
    ["a url that is not a URL", { url: "not a url" }, "url"],
    ["a templateId of the wrong type", { url: source, templateId: "bold" }, "templateId"],
    ["an unknown templateId", { url: source, templateId: -999 }, "templateId"]
  ]
  for (const [name, body, field] of cases) {
    it(`answers 400 naming ${field} for ${name}, and records nothing`, async () => {
      const before = await videoCount(token)
      expectError(await call(app.baseUrl, "/v1/caption-videos", { token, json: body }), 400, field)
      expect(await videoCount(token)).toBe(before)
    })
  }

  it("answers 400 for another workspace's saved template", async () => {
    const saved = await call(app.baseUrl, "/v1/caption-templates", { token: otherToken, json: { name: "Theirs" } })
    expect(saved.status).toBe(200)
    expect(saved.body.id).toBeGreaterThan(0)
    expectError(await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: source, templateId: saved.body.id } }), 400, "templateId")
  })

  it("answers 400 for malformed JSON", async () => {
    expectError(await call(app.baseUrl, "/v1/caption-videos", { token, raw: "{\"url\": " }), 400, "body")
  })

  it("answers 400 for multipart with both file and url, and for multipart without a file", async () => {
    const both = new FormData()
    both.set("file", new Blob([new Uint8Array(10)]), "a.mp4")
    both.set("url", source)
    expectError(await call(app.baseUrl, "/v1/caption-videos", { token, form: both }), 400, "url")
    const none = new FormData()
    none.set("templateId", "-1")
    expectError(await call(app.baseUrl, "/v1/caption-videos", { token, form: none }), 400, "file")
  })

  it("answers 400 naming render for a multipart render that is not JSON", async () => {
    const form = new FormData()
    form.set("file", new Blob([new Uint8Array(10)]), "a.mp4")
    form.set("render", "{frameRate:60")
    expectError(await call(app.baseUrl, "/v1/caption-videos", { token, form }), 400, "render")
  })

  it("answers 403 before creating anything when the plan cannot render", async () => {
    const answer = await call(app.baseUrl, "/v1/caption-videos", { token: freeToken, json: { url: source, render: {} } })
    expectError(answer, 403)
    expect(await videoCount(freeToken)).toBe(0)
    // Without render the free plan may caption.
    expect((await call(app.baseUrl, "/v1/caption-videos", { token: freeToken, json: { url: source } })).status).toBe(200)
  })

  it("answers 413 when the declared upload size is over 500 MB, without reading it", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL(`${app.baseUrl}/v1/caption-videos`)
      const req = httpRequest({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(600 * 1000 * 1000)
        }
      }, (res) => {
        let body = ""
        res.on("data", (c: Buffer) => (body += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on("error", reject)
      req.write("--x\r\n")
    })
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.body).error.code).toBe("payload_too_large")
  })

  it("answers 413 for a chunked upload that grows past 500 MB while streaming", async () => {
    const before = await videoCount(token)
    const chunk = new Uint8Array(4 * 1024 * 1024)
    let sent = 0
    const head = "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.mp4\"\r\nContent-Type: video/mp4\r\n\r\n"
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head))
      },
      pull(controller) {
        if (sent > 520 * 1000 * 1000) return controller.close()
        sent += chunk.length
        controller.enqueue(chunk)
      }
    })
    const response = await fetch(`${app.baseUrl}/v1/caption-videos`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=x" },
      body,
      duplex: "half"
    } as RequestInit).catch((e: unknown) => e)
    // The server answers 413 and may close the connection before the client finished sending.
    if (response instanceof Response) {
      expect(response.status).toBe(413)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("payload_too_large")
    }
    expect(sent).toBeLessThan(600 * 1000 * 1000)
    expect(await videoCount(token)).toBe(before)
  })
})

describe("records of another workspace", () => {
  it("are a 404, like missing ones", async () => {
    const mine = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: source } })
    expect(mine.status).toBe(200)
    const id = mine.body.id
    expectError(await call(app.baseUrl, `/v1/videos/${id}`, { token: otherToken }), 404)
    expectError(await call(app.baseUrl, `/v1/videos/${id}/captions`, { token: otherToken }), 404)
    expectError(await call(app.baseUrl, `/v1/videos/${id}/render`, { token: otherToken, json: {} }), 404)
    expectError(await call(app.baseUrl, "/v1/videos/00000000-0000-4000-8000-000000000000", { token }), 404)
    expect((await call(app.baseUrl, `/v1/videos/${id}`, { token })).status).toBe(200)
  })
})

describe("Idempotency-Key", () => {
  it("returns the first response to a retried create and 409 for the same key with another body", async () => {
    const headers = { "idempotency-key": "create-once-123" }
    const first = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: source }, headers })
    const again = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: source }, headers })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    const other = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: `${source}?v=2` }, headers })
    expectError(other, 409)
    // The same key in another workspace is another key.
    const theirs = await call(app.baseUrl, "/v1/caption-videos", { token: otherToken, json: { url: source }, headers })
    expect(theirs.body.id).not.toBe(first.body.id)
  })
})

describe("documentation", () => {
  it("serves OpenAPI 3.1 describing every field of the caption-video request, and a docs page", async () => {
    const spec = await call(app.baseUrl, "/openapi.json")
    expect(spec.status).toBe(200)
    expect(spec.body.openapi).toBe("3.1.0")
    const post = spec.body.paths["/v1/caption-videos"].post
    expect(Object.keys(post.requestBody.content).sort()).toEqual(["application/json", "multipart/form-data"])
    expect(spec.body.paths["/v1/videos/{id}/render"].post).toBeDefined()
    const docs = await fetch(`${app.baseUrl}/docs`)
    expect(docs.status).toBe(200)
    expect(await docs.text()).toContain("<html")
  })
})
