// The read lane (adapters/http/read-lane.ts) answers the reads of one record without the API's middleware
// stack: each of its answers must be the API's own answer, and whatever is not a success must reach the API.
// Every read is asked twice, through the lane and with the lane taken out of its slot.
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { LANE_READS } from "../../adapters/http/read-lane.ts"
import { workspaceOperations } from "../../src/catalogue.ts"
import { type Answer, call } from "../support/http-client.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { completedVideo } from "../support/completed-video.ts"
import { countLane } from "../support/lane-counter.ts"

const REQUEST_ID = /^[0-9a-f]{16}$/

/** What must be the same whichever path answered: status, body (but its request id), and the headers a client reads. */
const comparable = (answer: Answer) => ({
  status: answer.status,
  body: answer.body,
  contentType: answer.headers.get("content-type"),
  rateLimit: [answer.headers.get("ratelimit-limit"), answer.headers.get("ratelimit-remaining") !== null, answer.headers.get("ratelimit-reset") !== null]
})

describe("the read lane", () => {
  let app: TestApp
  let token: string
  let videoId: string
  let lane: Awaited<ReturnType<typeof countLane>>

  beforeAll(async () => {
    app = await startApp({ worker: false })
    const workspace = await app.createWorkspace()
    token = workspace.token
    videoId = await app.runtime.runPromise(Effect.gen(function*() {
      const video = yield* completedVideo(workspace.workspaceId)
      yield* (yield* VideoStore).saveWords(video.id, [{ text: "Hello", start: 0, end: 0.5 }, { text: "there.", start: 0.6, end: 1.1 }])
      return video.id
    }))
    lane = await countLane(app, "read")
  })
  afterAll(() => app?.close())

  const pathOf = (name: string): string => {
    const op = workspaceOperations.find((o) => o.name === name)
    if (op === undefined) throw new Error(`no operation ${name}`)
    return op.http.path.replace(":id", videoId)
  }

  it("takes the reads whose whole input is their path", () => {
    expect([...LANE_READS].sort()).toEqual([
      "getCaptionRemoval",
      "getClips",
      "getPricing",
      "getVideo",
      "getVideoCaptions",
      "getWorkspace",
      "getWorkspaceVocabulary",
      "listArtStyles",
      "listBalanceLogs",
      "listCaptionTemplates",
      "listCreditLogs",
      "listFiles",
      "listProviderKeys",
      "listVideoDeliveries",
      "listVideos",
      "listVoices",
      "listWebhookSecrets"
    ])
  })

  // The caption removal and clips reads differ from getVideo only in their operation; they need records of work.
  const answerable = LANE_READS.filter((name) => name !== "getCaptionRemoval" && name !== "getClips")

  /** Asks through the lane, then through the stack, and compares. */
  const askedBoth = async (path: string) => {
    const before = { ...lane.counted }
    const fast = await call(app.baseUrl, path, { token })
    expect(lane.counted.taken - before.taken).toBe(1)
    expect(lane.counted.passed - before.passed, JSON.stringify(fast.body).slice(0, 300)).toBe(0)
    lane.off()
    try {
      const full = await call(app.baseUrl, path, { token })
      expect(fast.status).toBe(200)
      expect(comparable(fast)).toEqual(comparable(full))
      expect(fast.headers.get("x-request-id")).toMatch(REQUEST_ID)
      expect(fast.headers.get("x-request-id")).not.toBe(full.headers.get("x-request-id"))
    } finally {
      lane.on()
    }
    return fast
  }

  it.each(answerable)("answers %s as the API does", async (name) => {
    await askedBoth(pathOf(name))
  })

  it("decodes a list's query as the API does, and ignores one a read of one record has no use for", async () => {
    expect((await askedBoth("/v1/videos?limit=1")).body.data).toHaveLength(1)
    expect((await askedBoth("/v1/videos?status=completed&limit=5")).body.data.map((v: { id: string }) => v.id)).toEqual([videoId])
    expect((await askedBoth("/v1/videos?status=failed")).body.data).toEqual([])
    await askedBoth(`/v1/credit-logs?videoId=${videoId}`)
    expect((await askedBoth(`/v1/videos/${videoId}?expand=nothing`)).body.id).toBe(videoId)
  })

  it("hands the API what is not a success: a missing record, a refused token, a bad id", async () => {
    const asked = [
      { path: "/v1/videos/00000000-0000-4000-8000-000000000000", token },
      { path: `/v1/videos/${videoId}`, token: "rw_not_a_token" },
      { path: `/v1/videos/${videoId}`, token: undefined },
      { path: "/v1/videos/nope", token }
    ]
    const fast: Array<Answer> = []
    const before = { ...lane.counted }
    for (const a of asked) fast.push(await call(app.baseUrl, a.path, a.token === undefined ? {} : { token: a.token }))
    // The bad id fails its path's decoding: the lane declines it before any work.
    expect(lane.counted.taken - before.taken).toBe(3)
    expect(lane.counted.passed - before.passed).toBe(3)
    lane.off()
    try {
      for (const [i, a] of asked.entries()) {
        const full = await call(app.baseUrl, a.path, a.token === undefined ? {} : { token: a.token })
        const strip = (answer: Answer) => ({ ...comparable(answer), body: { error: { ...answer.body.error, requestId: "" } } })
        expect(strip(fast[i]!)).toEqual(strip(full))
        expect(fast[i]!.headers.get("www-authenticate")).toBe(full.headers.get("www-authenticate"))
      }
    } finally {
      lane.on()
    }
    expect(fast.map((a) => a.status)).toEqual([404, 401, 401, 400])
    expect(fast[0]!.body.error.requestId).toBe(fast[0]!.headers.get("x-request-id"))
  })

  it("leaves other methods, and queries that do not decode, to the API", async () => {
    const before = { ...lane.counted }
    expect((await call(app.baseUrl, `/v1/videos/${videoId}`, { token, method: "HEAD" })).status).toBe(200)
    const refused = [
      await call(app.baseUrl, "/v1/videos?limit=500", { token }),
      await call(app.baseUrl, "/v1/videos?limit=1&limit=2", { token }),
      await call(app.baseUrl, "/v1/videos?colour=red", { token })
    ]
    expect(refused.map((a) => [a.status, a.body.error.details?.field])).toEqual([[400, "limit"], [400, "limit"], [400, "colour"]])
    expect(lane.counted.taken).toBe(before.taken)
  })
})

describe("the read lane under a read budget", () => {
  let app: TestApp
  let token: string
  let lane: Awaited<ReturnType<typeof countLane>>

  beforeAll(async () => {
    app = await startApp({ worker: false, rateLimits: { reads: { perSecond: 0.001, burst: 2 }, writes: null } })
    token = (await app.createWorkspace()).token
    lane = await countLane(app, "read")
  })
  afterAll(() => app?.close())

  it("takes from the budget once per answer, and leaves the refusal to the API", async () => {
    const answers: Array<Answer> = []
    for (let i = 0; i < 3; i++) answers.push(await call(app.baseUrl, "/v1/workspace", { token }))
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
    expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["1", "0", "0"])
    expect(answers[2]!.headers.get("retry-after")).not.toBeNull()
    expect(lane.counted).toEqual({ taken: 3, passed: 1 })
  })

  it("spends nothing of the budget on a read the API then answers", async () => {
    const other = await app.createWorkspace()
    const missing = await call(app.baseUrl, "/v1/videos/00000000-0000-4000-8000-000000000000", { token: other.token })
    expect(missing.status).toBe(404)
    expect(missing.headers.get("ratelimit-remaining")).toBe("1")
    expect((await call(app.baseUrl, "/v1/workspace", { token: other.token })).headers.get("ratelimit-remaining")).toBe("0")
  })
})
