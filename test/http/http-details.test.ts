// What HTTP clients read besides the body: a 401 names its scheme (WWW-Authenticate), a route that does
// not exist or a method a path does not take answers in the error shape (405 and OPTIONS with Allow),
// and a create's 200 says where its record is (Location), the same on a replay.
import { OpenApi } from "@effect/platform"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ReelwrightApi } from "../../adapters/http/api.ts"
import { catalogue } from "../../src/catalogue.ts"
import { type Answer, call } from "../support/http-client.ts"
import { startApp, type TestApp } from "../support/app.ts"

const SOURCE = "https://media.example.com/talk.mp4"

const expectErrorShape = (answer: Answer, status: number, code: string) => {
  expect(answer.status).toBe(status)
  expect(answer.body).toEqual({
    error: { code, message: expect.any(String), requestId: answer.headers.get("x-request-id") }
  })
}

describe("HTTP details", () => {
  let app: TestApp
  let token: string

  beforeAll(async () => {
    // No worker: the records stay `processing`, and their sources are never fetched.
    app = await startApp({ worker: false })
    token = (await app.createWorkspace()).token
  })
  afterAll(() => app?.close())

  describe("a 401", () => {
    it("names the Bearer scheme, with no error code when no token was sent", async () => {
      const answer = await call(app.baseUrl, "/v1/videos")
      expectErrorShape(answer, 401, "unauthenticated")
      expect(answer.headers.get("www-authenticate")).toBe(`Bearer realm="reelwright"`)
    })

    it("says invalid_token when a token was sent but refused", async () => {
      const answer = await call(app.baseUrl, "/v1/videos", { token: "rw_not_a_real_token" })
      expectErrorShape(answer, 401, "unauthenticated")
      expect(answer.headers.get("www-authenticate")).toBe(`Bearer realm="reelwright", error="invalid_token"`)
    })

    it("names it on /admin too", async () => {
      expect((await call(app.baseUrl, "/admin/queue")).headers.get("www-authenticate")).toBe(`Bearer realm="reelwright"`)
      expect((await call(app.baseUrl, "/admin/queue", { token })).headers.get("www-authenticate"))
        .toBe(`Bearer realm="reelwright", error="invalid_token"`)
    })

    it("keeps /mcp's own challenge, which points at the OAuth metadata", async () => {
      const answer = await call(app.baseUrl, "/mcp", { json: { jsonrpc: "2.0", id: 1, method: "tools/list" } })
      expect(answer.status).toBe(401)
      expect(answer.headers.get("www-authenticate")).toBe(
        `Bearer resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource"`
      )
    })

    it("is not sent with answers that are not 401", async () => {
      expect((await call(app.baseUrl, "/v1/videos", { token })).headers.get("www-authenticate")).toBeNull()
    })
  })

  describe("routes", () => {
    it("answers an unknown route 404 in the error shape, naming method and path without the query", async () => {
      const answer = await call(app.baseUrl, "/v1/no-such-route?secret=1", { token })
      expectErrorShape(answer, 404, "not_found")
      expect(answer.body.error.message).toBe("No route GET /v1/no-such-route.")
      expectErrorShape(await call(app.baseUrl, "/nowhere", { method: "PATCH" }), 404, "not_found")
      expectErrorShape(await call(app.baseUrl, "/nowhere", { method: "OPTIONS" }), 404, "not_found")
    })

    it("answers a method the path does not take 405 with Allow", async () => {
      const answer = await call(app.baseUrl, "/v1/videos", { token, method: "DELETE" })
      expectErrorShape(answer, 405, "method_not_allowed")
      expect(answer.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
      const health = await call(app.baseUrl, "/health", { method: "POST" })
      expectErrorShape(health, 405, "method_not_allowed")
      expect(health.headers.get("allow")).toBe("GET, HEAD, OPTIONS")
    })

    it("answers OPTIONS on a known path 204 with Allow, without a token and without CORS", async () => {
      const cases = [
        ["/v1/videos", "GET, HEAD, OPTIONS"],
        ["/v1/videos/00000000-0000-4000-8000-000000000000", "GET, HEAD, OPTIONS"],
        ["/v1/caption-videos", "POST, OPTIONS"],
        ["/v1/caption-templates/7", "DELETE, PATCH, OPTIONS"],
        ["/health", "GET, HEAD, OPTIONS"]
      ] as const
      for (const [path, allow] of cases) {
        const response = await fetch(`${app.baseUrl}${path}`, { method: "OPTIONS", headers: { origin: "https://example.com" } })
        expect(response.status, path).toBe(204)
        expect(response.headers.get("allow")?.split(", ").sort(), path).toEqual(allow.split(", ").sort())
        expect(response.headers.get("x-request-id"), path).toMatch(/^[0-9a-f]{16}$/)
        expect(response.headers.get("access-control-allow-origin"), path).toBeNull()
        expect(await response.text(), path).toBe("")
      }
    })
  })

  describe("a create", () => {
    it("answers 200 with the record's URL as Location, which GET answers with the record", async () => {
      const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: SOURCE } })
      expect(created.status).toBe(200)
      const location = created.headers.get("location")
      expect(location).toBe(`${app.baseUrl}/v1/videos/${created.body.id}`)
      const read = await fetch(location!, { headers: { authorization: `Bearer ${token}` } })
      expect(read.status).toBe(200)
      expect(await read.json()).toMatchObject({ id: created.body.id, status: "processing" })
    })

    it("carries the same Location on an Idempotency-Key replay", async () => {
      const send = () =>
        call(app.baseUrl, "/v1/caption-videos", { token, json: { url: SOURCE }, headers: { "idempotency-key": "location-replay" } })
      const first = await send()
      const replay = await send()
      expect(replay.status).toBe(200)
      expect(replay.body.id).toBe(first.body.id)
      expect(replay.headers.get("location")).toBe(first.headers.get("location"))
      expect(first.headers.get("location")).toBe(`${app.baseUrl}/v1/videos/${first.body.id}`)
    })

    it("of a caption removal points at the removal", async () => {
      const created = await call(app.baseUrl, "/v1/caption-remover", { token, json: { url: SOURCE } })
      expect(created.status).toBe(200)
      expect(created.headers.get("location")).toBe(`${app.baseUrl}/v1/caption-remover/${created.body.id}`)
      const read = await call(app.baseUrl, new URL(created.headers.get("location")!).pathname, { token })
      expect(read.status).toBe(200)
      expect(read.body.id).toBe(created.body.id)
    })

    it("is the only kind of answer with a Location", async () => {
      expect((await call(app.baseUrl, "/v1/videos", { token })).headers.get("location")).toBeNull()
    })
  })

  it("refuses an id that is not one in a sentence naming the kind of record and quoting what came", async () => {
    const answer = await call(app.baseUrl, "/v1/videos/nope", { token })
    expect(answer.status).toBe(400)
    expect(answer.body.error.message).toBe(`id: must be a video's id (a UUID, as its create answered it), not "nope"`)
  })
})

describe("readBack declarations", () => {
  it("name a GET of the catalogue, by id", () => {
    const reads = catalogue.flatMap((op) => op.readBack === undefined ? [] : [op.readBack])
    expect(reads.length).toBeGreaterThan(0)
    for (const read of reads) {
      expect(catalogue).toContain(read)
      expect(read.http.method).toBe("GET")
      expect(read.http.path).toMatch(/\/:id$/)
    }
  })

  it("declare Location on the create's 200 in the OpenAPI document", () => {
    const spec = OpenApi.fromApi(ReelwrightApi) as unknown as { paths: Record<string, Record<string, any>> }
    expect(spec.paths["/v1/caption-videos"]!.post.responses["200"].headers.Location.schema).toEqual({ type: "string", format: "uri" })
    expect(spec.paths["/v1/videos"]!.get.responses["200"].headers).toBeUndefined()
  })
})
