// Requests written to hurt the service, against the real server on loopback: bodies that never end,
// grow past every cap, crash the multipart parser or nest without limit; slow and oversized headers;
// unknown routes and wrong methods; loose inputs. Each must get a JSON 4xx within seconds, leave no temp
// file or descriptor behind, and the process must keep answering /health with its memory bounded.
import { execFile } from "node:child_process"
import { readdirSync } from "node:fs"
import { connect, type Socket } from "node:net"
import { mkdtemp, readFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DEFAULT_REQUEST_LIMITS, type RequestLimitSettings } from "../../adapters/http/request-limits.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { call } from "../support/http-client.ts"
import { rawExchange, streamBody } from "../support/raw-http.ts"

/** Small deadlines and caps so each one can be shown to hold in a second or two. */
const LIMITS: RequestLimitSettings = {
  ...DEFAULT_REQUEST_LIMITS,
  formBytes: 4 * 1024 * 1024,
  formParts: 8,
  headersSeconds: 2,
  bodyIdleSeconds: 2,
  bodyMinBytesPerSecond: 2000
}

let app: TestApp
let token: string
let port: number
let peakRss = 0
let rssTimer: NodeJS.Timeout

beforeAll(async () => {
  app = await startApp({ worker: false, requestLimits: LIMITS })
  token = (await app.createWorkspace({ credits: 1000 })).token
  port = Number(new URL(app.baseUrl).port)
  rssTimer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
  }, 25)
})

afterAll(async () => {
  clearInterval(rssTimer)
  console.log(`abuse suite: peak RSS of the test process (service included) ${Math.round(peakRss / 1024 / 1024)} MiB`)
  await app?.close()
})

const health = async () => (await call(app.baseUrl, "/health")).status

const expectApiError = (answer: { status: number; body: any }, status: number, field?: string) => {
  expect(answer.status).toBe(status)
  expect(answer.body).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) })
  if (field !== undefined) expect(answer.body.error.details.field).toBe(field)
}

const tinyPng = async (): Promise<Buffer> => {
  const path = join(await mkdtemp(join(tmpdir(), "abuse-png-")), "tiny.png")
  await promisify(execFile)("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1", path])
  return readFile(path)
}

const openDescriptors = () => readdirSync("/proc/self/fd").length

/** Form temp folders of this process that hold a file named with `marker`. */
const formFilesNamed = (marker: string) =>
  readdirSync(tmpdir()).filter((d) => d.startsWith("reelwright-form-")).flatMap((d) => {
    try {
      return readdirSync(`${tmpdir()}/${d}`).filter((f) => f.includes(marker))
    } catch {
      return []
    }
  })

const form = (boundary: string, parts: ReadonlyArray<{ readonly headers: string; readonly body: string | Buffer }>, close = true) =>
  Buffer.concat([
    ...parts.flatMap((p) => [Buffer.from(`--${boundary}\r\n${p.headers}\r\n\r\n`), Buffer.from(p.body), Buffer.from("\r\n")]),
    Buffer.from(close ? `--${boundary}--\r\n` : "")
  ])

const post = (path: string, headers: Record<string, string>, body: Buffer | string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("")}` +
  `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`

describe("bodies that grow past every cap", () => {
  // The size that ended the process before bodies were capped while they stream.
  const HUGE = 600 * 1024 * 1024

  it.each([
    ["/oauth/token", { "content-type": "application/x-www-form-urlencoded" }],
    ["/oauth/register", { "content-type": "application/json" }],
    ["/oauth/sign-in", { "content-type": "application/x-www-form-urlencoded" }]
  ])("refuses a chunked body to %s at the JSON cap, in the OAuth shape, unauthenticated", async (path, headers) => {
    const before = process.memoryUsage().rss
    const [answer, healthWhileStreaming] = await Promise.all([streamBody(`${app.baseUrl}${path}`, { headers, totalBytes: HUGE }), health()])
    expect(healthWhileStreaming).toBe(200)
    expect(answer.status).toBe(413)
    expect(answer.body).toEqual({ error: "invalid_request", error_description: expect.stringContaining("over the limit") })
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024)
    expect(await health()).toBe(200)
  })

  it("refuses a chunked JSON body on /v1 at 1 MB, and /mcp in JSON-RPC", async () => {
    const v1 = await streamBody(`${app.baseUrl}/v1/ai-videos`, {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      totalBytes: HUGE
    })
    expectApiError(v1, 413, "body")
    const mcp = await streamBody(`${app.baseUrl}/mcp`, {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      totalBytes: HUGE
    })
    expect(mcp.status).toBe(413)
    expect(mcp.body).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringContaining("over the limit") } })
    expect(await health()).toBe(200)
  })

  it("caps a form across all its parts while it streams, and removes what it wrote", async () => {
    const marker = `cap-${Date.now()}`
    const boundary = "b0undary"
    const part = (i: number) => ({
      headers: `Content-Disposition: form-data; name="file${i}"; filename="${marker}-${i}.bin"\r\nContent-Type: application/octet-stream`,
      body: Buffer.alloc(1536 * 1024, 1)
    })
    const body = form(boundary, [part(0), part(1), part(2), part(3)])
    // Chunked, so no declared length gives it away: the cap holds while the parts stream in.
    const answer = await rawExchange(port, [
      `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ...[0, 1, 2, 3].map((i) => {
        const piece = body.subarray(i * body.length / 4, (i + 1) * body.length / 4)
        return Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from("\r\n")])
      })
    ], { gapMs: 50 })
    expectApiError(answer, 413, "body")
    await new Promise((r) => setTimeout(r, 200))
    expect(formFilesNamed(marker)).toEqual([])
    expect(await health()).toBe(200)
  })

  it("refuses a form with more parts than the cap", async () => {
    const boundary = "partsb"
    const parts = Array.from({ length: LIMITS.formParts + 2 }, (_, i) => ({ headers: `Content-Disposition: form-data; name="f${i}"`, body: "x" }))
    const body = form(boundary, parts)
    const answer = await rawExchange(port, [
      post("/v1/files", { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${boundary}` }, body),
      body
    ])
    expectApiError(answer, 400, "body")
    expect(answer.body.error.message).toContain(`more than ${LIMITS.formParts} parts`)
  })

  it("answers 413 for a declared length over the cap without reading the body, in the OAuth shape on /oauth", async () => {
    const answer = await rawExchange(port, [
      `POST /oauth/token HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000000\r\n\r\n`
    ])
    expect(answer.status).toBe(413)
    expect(answer.body.error).toBe("invalid_request")
  })
})

describe("multipart bodies that broke the parser", () => {
  const boundary = "xBoundary"
  const formHeaders = { authorization: `Bearer placeholder`, "content-type": `multipart/form-data; boundary=${boundary}` }

  it("answers 400 for a filename* with a bad percent escape, on upload and JSON-only routes alike", async () => {
    const body = form(boundary, [{
      headers: `Content-Disposition: form-data; name="file"; filename*=UTF-8''%ZZ\r\nContent-Type: video/mp4`,
      body: "abc"
    }])
    for (const path of ["/v1/caption-videos", "/v1/files"]) {
      const answer = await rawExchange(port, [post(path, { ...formHeaders, authorization: `Bearer ${token}` }, body), body])
      expectApiError(answer, 400, "body")
    }
    // A JSON-only route never hands a form to the parser.
    const jsonOnly = await rawExchange(port, [post("/v1/ai-videos", { ...formHeaders, authorization: `Bearer ${token}` }, body), body])
    expectApiError(jsonOnly, 415, "body")
    expect(await health()).toBe(200)
  })

  it("answers 400 within seconds for a form without its closing boundary, or with no body, and frees its descriptors", async () => {
    const marker = `open-${Date.now()}`
    const descriptors = openDescriptors()
    const unterminated = form(boundary, [{
      headers: `Content-Disposition: form-data; name="file"; filename="${marker}.mp4"\r\nContent-Type: video/mp4`,
      body: Buffer.alloc(4096, 7)
    }], false)
    const answers = await Promise.all(Array.from({ length: 20 }, () =>
      rawExchange(port, [post("/v1/files", { ...formHeaders, authorization: `Bearer ${token}` }, unterminated), unterminated])))
    for (const answer of answers) {
      expectApiError(answer, 400, "body")
      expect(answer.body.error.message).toContain("closing boundary")
      expect(answer.elapsedMs).toBeLessThan(5000)
    }
    console.log(`abuse suite: an unterminated form waits at most ${Math.max(...answers.map((a) => a.elapsedMs))} ms for its 400 (20 at once)`)
    const empty = await rawExchange(port, [post("/v1/files", { ...formHeaders, authorization: `Bearer ${token}` }, "")])
    expectApiError(empty, 400, "body")
    await new Promise((r) => setTimeout(r, 300))
    expect(formFilesNamed(marker)).toEqual([])
    expect(openDescriptors()).toBeLessThanOrEqual(descriptors + 3)
  })

  it("answers 408 when a form stops arriving, and 408 when it trickles below the minimum rate", async () => {
    const head = `POST /v1/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`
    const stalled = await rawExchange(port, [head, chunk(`--${boundary}\r\nContent-Disposition: form-data; name="url"\r\n\r\n`)])
    expectApiError(stalled, 408, "body")
    expect(stalled.elapsedMs).toBeLessThan((LIMITS.bodyIdleSeconds + 3) * 1000)
    console.log(`abuse suite: a stalled form is answered 408 after ${stalled.elapsedMs} ms (idle limit ${LIMITS.bodyIdleSeconds} s)`)
    const trickle = await rawExchange(port, [head, ...Array.from({ length: 40 }, () => chunk("x"))], { gapMs: 250, timeoutMs: 20_000 })
    expectApiError(trickle, 408, "body")
    expect(trickle.body.error.message).toContain("slower than")
  })

  it("answers 400 for a multipart Content-Type without a boundary or with an empty one", async () => {
    for (const type of ["multipart/form-data", "multipart/form-data; boundary="]) {
      const answer = await rawExchange(port, [post("/v1/files", { authorization: `Bearer ${token}`, "content-type": type }, "abc"), "abc"])
      expectApiError(answer, 400, "body")
    }
  })

  it("keeps the field of a file whose name is not Latin-1", async () => {
    const png = await tinyPng()
    const data = new FormData()
    data.append("file", new Blob([png], { type: "image/png" }), "视频.png")
    const answer = await call(app.baseUrl, "/v1/files", { token, form: data })
    expect(answer.status, JSON.stringify(answer.body)).toBe(200)
    expect(answer.body.key).toEqual(expect.any(String))
  })
})

describe("headers and connections", () => {
  it("answers 431 with the JSON body for headers over 16 KB", async () => {
    const answer = await rawExchange(port, [`GET /v1/videos HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`])
    expectApiError(answer, 431)
  })

  it("cuts off headers that take longer than the deadline, with a 408", async () => {
    const answer = await rawExchange(port, ["GET /v1/videos HTTP/1.1\r\n", "Host: 127.0.0.1\r\n", "X-Slow: 1\r\n"], {
      gapMs: 800,
      timeoutMs: 10_000
    })
    expectApiError(answer, 408)
    expect(answer.elapsedMs).toBeLessThan((LIMITS.headersSeconds + 3) * 1000)
  })

  it("closes connections past the cap as they arrive, and serves again once they close", async () => {
    const capped = await startApp({ worker: false, requestLimits: { ...LIMITS, maxConnections: 4 } })
    const cappedPort = Number(new URL(capped.baseUrl).port)
    try {
      const idle = await Promise.all(Array.from({ length: 4 }, () =>
        new Promise<Socket>((resolve) => {
          const socket = connect(cappedPort, "127.0.0.1", () => resolve(socket))
        })))
      // Node counts a connection once its accept is handled; give it that turn.
      await new Promise((r) => setTimeout(r, 100))
      const refused = await rawExchange(cappedPort, ["GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"], { timeoutMs: 3000 })
      expect(refused.status).toBe(0)
      for (const socket of idle) socket.destroy()
      await new Promise((r) => setTimeout(r, 100))
      expect((await call(capped.baseUrl, "/health")).status).toBe(200)
    } finally {
      await capped.close()
    }
  })

  it("answers a malformed request line with the JSON body", async () => {
    const answer = await rawExchange(port, ["NOT HTTP AT ALL\r\n\r\n"])
    expectApiError(answer, 400)
  })
})

describe("routes and input shapes", () => {
  it("answers an unknown route 404 and a known path's other method 405 with Allow, in JSON", async () => {
    expectApiError(await call(app.baseUrl, "/v2/nothing", { token }), 404)
    const wrongMethod = await call(app.baseUrl, "/v1/videos", { token, method: "DELETE" })
    expectApiError(wrongMethod, 405)
    expect(wrongMethod.headers.get("allow")).toContain("GET")
  })

  it("answers an over-long path parameter with a JSON 4xx", async () => {
    const answer = await call(app.baseUrl, `/v1/videos/${"v".repeat(5000)}`, { token })
    expect(answer.status).toBeGreaterThanOrEqual(400)
    expect(answer.status).toBeLessThan(500)
    expect(answer.body.error.code).toEqual(expect.any(String))
  })

  it("answers JSON nested 5,000 deep with a 400 naming the body", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`
    expectApiError(await call(app.baseUrl, "/v1/ai-videos", { token, raw: `{"script":${deep}}` }), 400, "body")
  })

  it("requires application/json on JSON routes: form-encoded, untyped and XML bodies are 415, and nothing changes", async () => {
    const videosBefore = (await call(app.baseUrl, "/v1/videos", { token })).body.data.length
    for (const headers of [{ "content-type": "application/x-www-form-urlencoded" }, { "content-type": "text/xml" }, {}]) {
      const answer = await fetch(`${app.baseUrl}/v1/ai-videos`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, ...headers },
        body: "script=hello+there"
      })
      expect(answer.status).toBe(415)
      expect(((await answer.json()) as { error: { details: { field: string } } }).error.details.field).toBe("body")
    }
    const patch = await fetch(`${app.baseUrl}/v1/caption-templates/1`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/xml" },
      body: "<template/>"
    })
    expect(patch.status).toBe(415)
    expect((await call(app.baseUrl, "/v1/videos", { token })).body.data.length).toBe(videosBefore)
  })

  it("refuses unknown fields with a 400 naming them", async () => {
    const answer = await call(app.baseUrl, "/v1/ai-videos", { token, json: { script: "Hello there.", scirpt: "typo" } })
    expectApiError(answer, 400, "scirpt")
  })

  it("takes numbers in query strings in decimal only, and refuses a cursor it did not make", async () => {
    expectApiError(await call(app.baseUrl, "/v1/videos?limit=0x10", { token }), 400, "limit")
    expectApiError(await call(app.baseUrl, "/v1/videos?limit=1e1", { token }), 400, "limit")
    expect((await call(app.baseUrl, "/v1/videos?limit=10", { token })).status).toBe(200)
    expectApiError(await call(app.baseUrl, "/v1/videos?cursor=%25%25garbage!!", { token }), 400, "cursor")
    expectApiError(await call(app.baseUrl, "/v1/files?cursor=%25%25garbage!!", { token }), 400, "cursor")
  })

  it("echoes at most a short prefix of a bad value", async () => {
    const long = "x".repeat(1024 * 1024 - 100)
    const response = await fetch(`${app.baseUrl}/v1/ai-videos`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ script: "Hello.", voiceId: long })
    })
    expect(response.status).toBe(400)
    expect((await response.text()).length).toBeLessThan(4096)
  })
})
