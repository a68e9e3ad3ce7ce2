// The workspace's account over HTTP and MCP: GET /v1/workspace, the credit log after a real speech
// charge, cash top-ups and credit grants through /admin (never a workspace token), cursor pagination of
// both logs, and 50 parallel render requests on a balance that covers 20.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ledger } from "../../domain/ports/ledger.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { renderCredits } from "../../domain/pricing.ts"
import { newCaptionVideo } from "../../domain/video.ts"
import { connectMcp, textOf } from "../mcp/mcp-client.ts"
import { ADMIN_TOKEN, startApp, type TestApp } from "../support/app.ts"
import { cliJson } from "../support/cli.ts"
import { type Answer, call } from "../support/http-client.ts"

let app: TestApp

beforeAll(async () => {
  // No worker: render requests charge and queue their job, and nothing encodes.
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await app?.close()
})

const ok = (answer: Answer) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body
}

/** Every item of a log, following `nextCursor` page by page; also the size of each page. */
const readAll = async (path: string, token: string, limit: number) => {
  const items: Array<any> = []
  const sizes: Array<number> = []
  let cursor: string | null = null
  do {
    const query: string = new URLSearchParams({ limit: String(limit), ...(cursor === null ? {} : { cursor }) }).toString()
    const page = ok(await call(app.baseUrl, `${path}${path.includes("?") ? "&" : "?"}${query}`, { token }))
    items.push(...page.data)
    sizes.push(page.data.length)
    cursor = page.nextCursor
  } while (cursor !== null)
  return { items, sizes }
}

/** Newest first: going back in time, each entry's balance after is the next older one's plus its own amount. */
const expectChainedNewestFirst = (items: ReadonlyArray<{ amount: number; balanceAfter: number }>) => {
  const oldestFirst = [...items].reverse()
  oldestFirst.forEach((entry, i) => expect(entry.balanceAfter).toBe((i === 0 ? 0 : oldestFirst[i - 1]!.balanceAfter) + entry.amount))
}

describe("GET /v1/workspace", () => {
  it("answers the plan, both balances and the owner, and only with a workspace token", async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 120, name: "Acme films", ownerEmail: "Owner@Acme.test", plan: "creator" })
    const workspace = ok(await call(app.baseUrl, "/v1/workspace", { token }))
    expect(workspace).toEqual({
      id: workspaceId,
      name: "Acme films",
      plan: "creator",
      credits: 120,
      cash: { balance: 0, currency: "USD", unit: "microdollars" },
      owner: { email: "Owner@Acme.test" },
      byok: false,
      transcription: { engine: "pocketsphinx", model: "en-us" },
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    })
    expect((await call(app.baseUrl, "/v1/workspace")).status).toBe(401)
  })
})

describe("credit and balance logs", () => {
  it("shows a real speech charge in the credit log with the balance after it, newest first", async () => {
    const { token } = await app.createWorkspace({ credits: 100 })
    const spoken = ok(await call(app.baseUrl, "/v1/text-to-speech", { token, json: { script: "Hello there, friend." } }))
    expect(spoken.credits).toBeGreaterThan(0)
    const logs = ok(await call(app.baseUrl, "/v1/credit-logs", { token }))
    expect(logs).toEqual({
      data: [
        {
          id: expect.any(String),
          amount: -spoken.credits,
          balanceAfter: 100 - spoken.credits,
          reason: "speech",
          operation: "speech",
          videoId: null,
          createdAt: expect.any(String)
        },
        {
          id: expect.any(String),
          amount: 100,
          balanceAfter: 100,
          reason: "opening balance",
          operation: "opening balance",
          videoId: null,
          createdAt: expect.any(String)
        }
      ],
      nextCursor: null
    })
    expect(ok(await call(app.baseUrl, "/v1/workspace", { token })).credits).toBe(100 - spoken.credits)
  })

  it("tops up cash and grants credits through /admin only, once per reference, and the logs show them", async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 10 })
    const path = `/admin/workspaces/${workspaceId}/top-ups`
    const topUp = ok(await call(app.baseUrl, path, { token: ADMIN_TOKEN, json: { cents: 2500, note: "invoice 1", reference: "inv-1" } }))
    expect(topUp).toEqual({
      id: expect.any(String),
      kind: "top_up",
      amount: 25_000_000,
      balanceAfter: 25_000_000,
      note: "invoice 1",
      videoId: null,
      createdAt: expect.any(String)
    })
    expect(ok(await call(app.baseUrl, path, { token: ADMIN_TOKEN, json: { cents: 2500, note: "invoice 1", reference: "inv-1" } }))).toEqual(topUp)
    const second = ok(await call(app.baseUrl, path, { token: ADMIN_TOKEN, json: { cents: 99 } }))
    expect({ amount: second.amount, balanceAfter: second.balanceAfter, note: second.note }).toEqual({ amount: 990_000, balanceAfter: 25_990_000, note: null })

    // Never with a workspace token; never for a workspace that does not exist; never a negative top-up.
    expect((await call(app.baseUrl, path, { token, json: { cents: 100 } })).status).toBe(401)
    expect((await call(app.baseUrl, `/admin/workspaces/${randomUUID()}/top-ups`, { token: ADMIN_TOKEN, json: { cents: 100 } })).status).toBe(404)
    expect((await call(app.baseUrl, path, { token: ADMIN_TOKEN, json: { cents: -100 } })).status).toBe(400)

    const balanceLogs = ok(await call(app.baseUrl, "/v1/balance-logs", { token }))
    expect(balanceLogs).toEqual({ data: [second, topUp], nextCursor: null })
    expect(ok(await call(app.baseUrl, "/v1/workspace", { token })).cash).toEqual({ balance: 25_990_000, currency: "USD", unit: "microdollars" })

    const grant = ok(await call(app.baseUrl, `/admin/workspaces/${workspaceId}/credits`, { token: ADMIN_TOKEN, json: { credits: 50, note: "support ticket 7" } }))
    expect(grant).toMatchObject({ amount: 50, balanceAfter: 60, reason: "support ticket 7", operation: "top-up", videoId: null })
    expect((await call(app.baseUrl, `/admin/workspaces/${workspaceId}/credits`, { token, json: { credits: 50 } })).status).toBe(401)
    expect(ok(await call(app.baseUrl, "/v1/credit-logs", { token })).data[0]).toEqual(grant)
    expect(ok(await call(app.baseUrl, "/v1/workspace", { token })).credits).toBe(60)
  })

  it("pages both logs newest first with cursors over many entries", async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 1 })
    for (let i = 1; i <= 24; i++) {
      ok(await call(app.baseUrl, `/admin/workspaces/${workspaceId}/credits`, { token: ADMIN_TOKEN, json: { credits: i, note: `grant ${i}` } }))
      ok(await call(app.baseUrl, `/admin/workspaces/${workspaceId}/top-ups`, { token: ADMIN_TOKEN, json: { cents: i } }))
    }
    const credits = await readAll("/v1/credit-logs", token, 7)
    expect(credits.sizes).toEqual([7, 7, 7, 4])
    expect(credits.items.map((e) => e.reason)).toEqual([...Array.from({ length: 24 }, (_, i) => `grant ${24 - i}`), "opening balance"])
    expect(new Set(credits.items.map((e) => e.id)).size).toBe(25)
    expectChainedNewestFirst(credits.items)
    expect(credits.items[0].balanceAfter).toBe(1 + (24 * 25) / 2)

    const cash = await readAll("/v1/balance-logs", token, 10)
    expect(cash.sizes).toEqual([10, 10, 4])
    expect(cash.items.map((e) => e.amount)).toEqual(Array.from({ length: 24 }, (_, i) => (24 - i) * 10_000))
    expectChainedNewestFirst(cash.items)

    expect(ok(await call(app.baseUrl, "/v1/credit-logs?cursor=bm90LW1pbmU", { token }))).toEqual({ data: [], nextCursor: null })
    expect((await call(app.baseUrl, "/v1/credit-logs?limit=0", { token })).status).toBe(400)
    expect((await call(app.baseUrl, "/v1/balance-logs?limit=101", { token })).status).toBe(400)
    // Another workspace sees none of it.
    const other = await app.createWorkspace({ credits: 0 })
    expect(ok(await call(app.baseUrl, "/v1/credit-logs", { token: other.token }))).toEqual({ data: [], nextCursor: null })
    expect(ok(await call(app.baseUrl, "/v1/balance-logs", { token: other.token }))).toEqual({ data: [], nextCursor: null })
  })
})

describe("50 parallel render requests on a balance that covers 20", () => {
  it("accepts exactly 20, answers the others 402, and the ledger adds up to zero", async () => {
    const perRender = renderCredits(60, 30)
    const { workspaceId, token } = await app.createWorkspace({ credits: 20 * perRender })
    // Finished caption projects (timed, a minute long), stored directly: what matters here is the render charge.
    const ids = await app.runtime.runPromise(Effect.gen(function*() {
      const videos = yield* VideoStore
      return yield* Effect.forEach(Array.from({ length: 50 }), () => {
        const video = {
          ...newCaptionVideo({
            id: randomUUID(),
            workspaceId,
            templateId: -1,
            renderOptions: null,
            webhookUrl: null,
            editorToken: randomUUID(),
            source: { url: "https://media.example.com/clip.mp4" },
            at: "2025-01-02T03:04:05.678Z"
          }),
          status: "completed" as const,
          step: "completed" as const,
          generated: true,
          durationSeconds: 60,
          width: 1080,
          height: 1920
        }
        return Effect.as(videos.insert(video), video.id)
      })
    }))

    const answers = await Promise.all(ids.map((id) => call(app.baseUrl, `/v1/videos/${id}/render`, { token, json: {} })))
    const accepted = ids.filter((_, i) => answers[i]!.status === 200)
    const refused = answers.filter((a) => a.status === 402)
    expect(accepted).toHaveLength(20)
    expect(refused).toHaveLength(30)
    for (const answer of refused) expect(answer.body.error.code).toBe("insufficient_credits")

    const workspace = ok(await call(app.baseUrl, "/v1/workspace", { token }))
    expect(workspace.credits).toBe(0)
    const log = await readAll("/v1/credit-logs", token, 100)
    const charges = log.items.filter((e) => e.operation === "render")
    expect(charges).toHaveLength(20)
    expect(charges.every((e) => e.amount === -perRender)).toBe(true)
    expect(new Set(charges.map((e) => e.videoId))).toEqual(new Set(accepted))
    expect(log.items.reduce((sum, e) => sum + e.amount, 0)).toBe(0)
    expectChainedNewestFirst(log.items)
    const entries = await app.runtime.runPromise(Effect.flatMap(Ledger, (l) => l.list(workspaceId)))
    expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0)

    // Only the accepted videos are exporting; one video's log holds just its own charge.
    for (const [i, id] of ids.entries()) {
      const video = ok(await call(app.baseUrl, `/v1/videos/${id}`, { token }))
      expect(video.export?.status).toBe(answers[i]!.status === 200 ? "rendering" : undefined)
    }
    const one = ok(await call(app.baseUrl, `/v1/credit-logs?videoId=${accepted[0]}`, { token }))
    expect(one.data.map((e: { amount: number; videoId: string }) => [e.amount, e.videoId])).toEqual([[-perRender, accepted[0]]])
  })
})

describe("CLI", () => {
  it("tops up cash with cash:top-up and grants credits with credits:grant, with the admin token", async () => {
    const { workspaceId, token } = await app.createWorkspace({ credits: 0 })
    const cli = (args: Array<string>) => cliJson(app.baseUrl, args, { ADMIN_TOKEN })
    expect(await cli(["cash:top-up", "--workspaceId", workspaceId, "--cents", "1250", "--note", "wire"])).toMatchObject({
      kind: "top_up",
      amount: 12_500_000,
      note: "wire"
    })
    expect(await cli(["credits:grant", "--workspaceId", workspaceId, "--credits", "40"])).toMatchObject({ amount: 40, balanceAfter: 40 })
    const workspace = ok(await call(app.baseUrl, "/v1/workspace", { token }))
    expect([workspace.credits, workspace.cash.balance]).toEqual([40, 12_500_000])
  })
})

describe("over MCP", () => {
  let client: Client
  let workspace: { workspaceId: string; token: string }

  beforeAll(async () => {
    workspace = await app.createWorkspace({ credits: 300 })
    client = await connectMcp(app.baseUrl, workspace.token)
  })

  afterAll(async () => {
    await client?.close()
  })

  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    expect(result.isError, textOf(result)).not.toBe(true)
    return JSON.parse(textOf(result))
  }

  it("get_workspace answers what GET /v1/workspace answers", async () => {
    const viaMcp = await tool("get_workspace", {})
    expect(viaMcp).toEqual(ok(await call(app.baseUrl, "/v1/workspace", { token: workspace.token })))
    expect(viaMcp.credits).toBe(300)
  })

  it("list_credit_logs pages with the same cursors, and list_balance_logs shows a top-up", async () => {
    ok(await call(app.baseUrl, `/admin/workspaces/${workspace.workspaceId}/credits`, { token: ADMIN_TOKEN, json: { credits: 5 } }))
    ok(await call(app.baseUrl, `/admin/workspaces/${workspace.workspaceId}/top-ups`, { token: ADMIN_TOKEN, json: { cents: 10 } }))
    const first = await tool("list_credit_logs", { limit: 1 })
    expect(first.data.map((e: { amount: number; operation: string }) => [e.amount, e.operation])).toEqual([[5, "top-up"]])
    expect(first.nextCursor).toEqual(expect.any(String))
    const second = await tool("list_credit_logs", { limit: 1, cursor: first.nextCursor })
    expect(second).toEqual({ data: [expect.objectContaining({ amount: 300, operation: "opening balance" })], nextCursor: null })
    expect(await tool("list_credit_logs", {})).toEqual(ok(await call(app.baseUrl, "/v1/credit-logs", { token: workspace.token })))
    const cash = await tool("list_balance_logs", {})
    expect(cash.data.map((e: { kind: string; amount: number }) => [e.kind, e.amount])).toEqual([["top_up", 100_000]])

    const bad = await client.callTool({ name: "list_credit_logs", arguments: { limit: 500 } })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain("limit")
  })
})
