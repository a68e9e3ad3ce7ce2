// The MCP lane (adapters/mcp/mcp-lane.ts) answers POST /mcp without the API's middleware stack: each of its
// answers must be the stack's own, and what it does not take must reach the stack. Every exchange is sent
// twice, through the lane and with the lane taken out of its slot.
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../support/app.ts"
import { countLane } from "../support/lane-counter.ts"
import { INITIALIZE, type RawAnswer, rawPost } from "./mcp-client.ts"

const REQUEST_ID = /^[0-9a-f]{16}$/

const toolCall = (name: string, args: unknown, id = 7) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })

/** What must be the same whichever path answered: status, body, and the headers a client reads. */
const comparable = (answer: RawAnswer) => ({
  status: answer.status,
  body: answer.body,
  contentType: answer.headers["content-type"],
  contentLength: answer.headers["content-length"],
  challenge: answer.headers["www-authenticate"],
  allow: answer.headers["allow"],
  rateLimit: [answer.headers["ratelimit-limit"], answer.headers["ratelimit-remaining"] !== undefined, answer.headers["ratelimit-reset"] !== undefined]
})

/** A service with its MCP lane counted, a workspace's token, and the Host its requests name. */
const served = async (options: Parameters<typeof startApp>[0]) => {
  const app = await startApp(options)
  return { app, token: (await app.createWorkspace()).token, host: new URL(app.baseUrl).host, lane: await countLane(app, "mcp") }
}

describe("the MCP lane", () => {
  let app: TestApp
  let token: string
  let host: string
  let lane: Awaited<ReturnType<typeof countLane>>

  beforeAll(async () => {
    ;({ app, token, host, lane } = await served({ worker: false }))
  })
  afterAll(() => app?.close())

  /** Sends through the lane, then through the stack; compares, and answers the lane's. */
  const sentBoth = async (headers: Record<string, string>, body: unknown, taken: boolean) => {
    const before = { ...lane.counted }
    const fast = await rawPost(app.baseUrl, { host, ...headers }, body)
    expect(lane.counted.taken - before.taken).toBe(taken ? 1 : 0)
    expect(lane.counted.passed - before.passed).toBe(0)
    lane.off()
    try {
      const full = await rawPost(app.baseUrl, { host, ...headers }, body)
      expect(comparable(fast)).toEqual(comparable(full))
      expect(fast.headers["x-request-id"]).toMatch(REQUEST_ID)
    } finally {
      lane.on()
    }
    return fast
  }

  const bearer = () => ({ authorization: `Bearer ${token}` })

  it("answers a tool call as the API does", async () => {
    const answer = await sentBoth(bearer(), toolCall("list_art_styles", {}), true)
    expect(answer.status).toBe(200)
    expect((answer.body as any).id).toBe(7)
    expect((answer.body as any).result.isError).toBeFalsy()
    expect((answer.body as any).result.structuredContent).toBeDefined()
  })

  it("answers initialize, tools/list, a batch and a lone notification as the API does", async () => {
    expect((await sentBoth(bearer(), INITIALIZE, true)).status).toBe(200)
    const listed = await sentBoth(bearer(), { jsonrpc: "2.0", id: "list", method: "tools/list" }, true)
    expect((listed.body as any).result.tools.length).toBeGreaterThan(10)
    const batch = await sentBoth(bearer(), [toolCall("list_voices", {}, 1), toolCall("get_workspace", {}, 2)], true)
    expect((batch.body as any[]).map((a) => a.id)).toEqual([1, 2])
    expect((await sentBoth(bearer(), { jsonrpc: "2.0", method: "notifications/initialized" }, true)).status).toBe(202)
  })

  it("answers a failing tool call, an unknown tool and arguments that do not decode as the API does", async () => {
    const missing = await sentBoth(bearer(), toolCall("get_video", { id: "00000000-0000-4000-8000-000000000000" }), true)
    expect((missing.body as any).result.isError).toBe(true)
    const unknown = await sentBoth(bearer(), toolCall("make_coffee", {}), true)
    expect(JSON.stringify(unknown.body)).toMatch(/make_coffee/)
    const undecodable = await sentBoth(bearer(), toolCall("get_video", { id: 42 }), true)
    expect((undecodable.body as any).result.isError).toBe(true)
  })

  it("answers the transport's refusals as the API does: not JSON-RPC, not acceptable, a foreign Origin or Host, an unknown token", async () => {
    expect((await sentBoth(bearer(), "{not json", true)).status).toBe(400)
    expect((await sentBoth(bearer(), { hello: "world" }, true)).status).toBe(400)
    expect((await sentBoth({ ...bearer(), accept: "application/json" }, INITIALIZE, true)).status).toBe(406)
    expect((await sentBoth({ ...bearer(), origin: "http://evil.example.com" }, INITIALIZE, true)).status).toBe(403)
    expect((await sentBoth({ ...bearer(), host: "evil.example.com" }, INITIALIZE, true)).status).toBe(403)
    const refused = await sentBoth({ authorization: "Bearer rw_not_a_real_token" }, INITIALIZE, true)
    expect(refused.status).toBe(401)
    expect(refused.headers["www-authenticate"]).toMatch(/^Bearer error="invalid_token"/)
  })

  it("leaves to the API what it refuses before reading a body: no token, another type, a length over the cap", async () => {
    expect((await sentBoth({}, INITIALIZE, false)).status).toBe(401)
    expect((await sentBoth({ ...bearer(), "content-type": "text/plain" }, INITIALIZE, false)).status).toBe(415)
    const huge = { ...INITIALIZE, params: { ...INITIALIZE.params, padding: "x".repeat(2_000_000) } }
    expect((await sentBoth(bearer(), huge, false)).status).toBe(413)
  })

  it("survives a body cut short, and answers the next call", async () => {
    const [hostName, port] = [new URL(app.baseUrl).hostname, Number(new URL(app.baseUrl).port)]
    const before = lane.counted.taken
    await new Promise<void>((done) => {
      const socket = connect(port, hostName, () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nContent-Length: 500\r\n\r\n{"jsonrpc":"2.0",`
        )
        setTimeout(() => socket.destroy(), 100)
      })
      socket.on("close", () => done())
      socket.on("error", () => undefined)
    })
    expect(lane.counted.taken).toBe(before + 1)
    const answer = await rawPost(app.baseUrl, { host, ...bearer() }, toolCall("list_art_styles", {}))
    expect(answer.status).toBe(200)
  })
})

describe("the MCP lane under a write budget", () => {
  let app: TestApp
  let token: string
  let host: string
  let lane: Awaited<ReturnType<typeof countLane>>

  beforeAll(async () => {
    ;({ app, token, host, lane } = await served({ worker: false, rateLimits: { reads: null, writes: { perSecond: 0.001, burst: 2 } } }))
  })
  afterAll(() => app?.close())

  it("takes one request of the budget per call, and leaves the refusal to the API", async () => {
    const answers: Array<RawAnswer> = []
    for (let i = 0; i < 3; i++) answers.push(await rawPost(app.baseUrl, { host, authorization: `Bearer ${token}` }, toolCall("list_art_styles", {})))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
    expect(answers.map((a) => a.headers["ratelimit-remaining"])).toEqual(["1", "0", "0"])
    expect(answers[2]!.headers["retry-after"]).toBeDefined()
    expect((answers[2]!.body as any).error.message).toMatch(/Too many requests/)
    expect(lane.counted).toEqual({ taken: 3, passed: 1 })
  })
})
