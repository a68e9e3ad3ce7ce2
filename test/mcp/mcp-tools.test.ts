// The tools through the real SDK client: the list, reads scoped to the workspace, a caption video
// that spends exactly what the same HTTP request spends, and failures that come back as `isError`
// text saying what to change while the session goes on. Also the spec's bare call shape.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { Effect, HashMap, Logger, LogLevel, Option, Schema } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { callTool, toolInput } from "../../adapters/mcp/mcp-tools.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { updateCaptionTemplate } from "../../src/ops/caption-templates/update-caption-template.ts"
import { listVideos } from "../../src/ops/videos/list-videos.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { makeSpokenClip } from "../support/clips.ts"
import { call, serveFiles, waitForVideo } from "../support/http-client.ts"
import { connectMcp, textOf } from "./mcp-client.ts"

let app: TestApp
let dir: string
let files: Awaited<ReturnType<typeof serveFiles>>
let workspace: { workspaceId: string; token: string }
let client: Client

const ledgerOf = (workspaceId: string) =>
  app.runtime.runPromise(Effect.flatMap(Ledger, (l) => Effect.all([l.balance(workspaceId), l.list(workspaceId)])))

const callJson = async (c: Client, name: string, args: Record<string, unknown>) => {
  const result = await c.callTool({ name, arguments: args })
  expect(result.isError, textOf(result)).not.toBe(true)
  return { result, body: JSON.parse(textOf(result)) }
}

const callFailing = async (c: Client, name: string, args: Record<string, unknown>) => {
  const result = await c.callTool({ name, arguments: args })
  expect(result.isError).toBe(true)
  return textOf(result)
}

beforeAll(async () => {
  app = await startApp()
  dir = await mkdtemp(join(tmpdir(), "mcp-tools-"))
  const clip = await makeSpokenClip({ text: "Short clips make quick tests.", width: 360, height: 640, fps: 30, silenceAfter: 0.5, dir })
  files = await serveFiles({ "clip.mp4": { path: clip.path, contentType: "video/mp4" } })
  workspace = await app.createWorkspace({ credits: 1000 })
  client = await connectMcp(app.baseUrl, workspace.token)
})

afterAll(async () => {
  await client?.close()
  await files?.close()
  await app?.close()
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
})

describe("tools/list", () => {
  it("gives every tool a name, a description and an object input schema from its operation", async () => {
    const { tools } = await client.listTools()
    expect(tools.length).toBeGreaterThan(0)
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-z0-9_]+$/)
      expect(tool.description?.length ?? 0).toBeGreaterThan(20)
      expect(tool.inputSchema.type).toBe("object")
    }
    const getVideo = tools.find((t) => t.name === "get_video")!
    expect(getVideo.inputSchema.required).toEqual(["id"])
    const caption = tools.find((t) => t.name === "create_caption_video")!
    expect(caption.inputSchema.required).toEqual(["url"])
    expect(Object.keys(caption.inputSchema.properties ?? {}).sort()).toEqual(["emoji", "emphasis", "hook", "language", "platform", "reframe", "render", "templateId", "transcript", "trim", "url", "webhookUrl"])
  })
})

describe("tools/call", () => {
  it("create_caption_video spends exactly what the same HTTP request spends, and the video completes", async () => {
    const overHttp = await app.createWorkspace({ credits: 1000 })
    const request = { url: files.url("clip.mp4"), render: {} }

    const { body: created, result } = await callJson(client, "create_caption_video", request)
    expect(created.status).toBe("processing")
    expect(created.render).toBe(true)
    expect(result.structuredContent).toEqual(created)
    const http = await call(app.baseUrl, "/v1/caption-videos", { token: overHttp.token, json: request })
    expect(http.status).toBe(200)

    const [viaMcp, viaHttp] = [
      await waitForVideo(app.baseUrl, workspace.token, created.id),
      await waitForVideo(app.baseUrl, overHttp.token, http.body.id)
    ]
    expect(viaMcp.error).toBeUndefined()
    expect([viaMcp.status, viaHttp.status]).toEqual(["completed", "completed"])
    expect(viaMcp.videoUrl).toBeDefined()

    const [[mcpBalance, mcpEntries], [httpBalance, httpEntries]] = [await ledgerOf(workspace.workspaceId), await ledgerOf(overHttp.workspaceId)]
    expect(mcpBalance).toBeLessThan(1000)
    expect(mcpBalance).toBe(httpBalance)
    const charges = (entries: typeof mcpEntries) => entries.filter((e) => e.amount < 0).map((e) => [e.reason, e.amount]).sort()
    expect(charges(mcpEntries)).toEqual(charges(httpEntries))

    // get_video answers the same object as GET /v1/videos/:id.
    const { body: got } = await callJson(client, "get_video", { id: created.id })
    expect(got).toEqual((await call(app.baseUrl, `/v1/videos/${created.id}`, { token: workspace.token })).body)
  }, 180_000)

  it("get_video of another workspace's video is not found", async () => {
    const other = await app.createWorkspace()
    const created = await call(app.baseUrl, "/v1/caption-videos", { token: other.token, json: { url: files.url("clip.mp4") } })
    expect(created.status).toBe(200)
    expect((await waitForVideo(app.baseUrl, other.token, created.body.id)).status).toBe("completed")
    expect(await callFailing(client, "get_video", { id: created.body.id })).toContain(`No video with id ${created.body.id}`)
  }, 60_000)

  it("list_voices answers what GET /v1/voices answers", async () => {
    const { body } = await callJson(client, "list_voices", {})
    expect(body.data.length).toBeGreaterThan(0)
    expect(body).toEqual((await call(app.baseUrl, "/v1/voices", { token: workspace.token })).body)
  })
})

describe("failing tools answer isError with what to change, and the session goes on", () => {
  it("bad arguments name each wrong field and what is wrong", async () => {
    const text = await callFailing(client, "create_caption_video", { url: 42, render: { frameRate: 24 } })
    expect(text).toContain("url: Expected string, actual 42")
    expect(text).toContain("render.frameRate: Expected 30 or 60, actual 24")
    expect(text).not.toContain("undefined")
    expect(await callFailing(client, "get_video", {})).toContain("id: is missing")
    expect(await callFailing(client, "get_video", { id: "not-an-id" })).toMatch(/id: .*UUID/)
  })

  it("an argument the operation itself rejects names its field", async () => {
    const text = await callFailing(client, "create_ai_video_v3", { script: "A short story.", artStyleId: "no-such-style" })
    expect(text).toMatch(/^Invalid argument artStyleId: unknown art style "no-such-style"/)
  })

  it("an unknown video", async () => {
    const id = "00000000-0000-4000-8000-000000000000"
    expect(await callFailing(client, "get_video", { id })).toContain(`No video with id ${id}.`)
  })

  it("short credits on a spending tool, with nothing charged", async () => {
    const broke = await app.createWorkspace({ credits: 0 })
    const brokeClient = await connectMcp(app.baseUrl, broke.token)
    try {
      const text = await callFailing(brokeClient, "text_to_speech", { script: "Hello there, this costs credits." })
      expect(text).toMatch(/^This needs \d+ credits; the workspace has 0\. Top up/)
      expect((await ledgerOf(broke.workspaceId))[0]).toBe(0)
      // Same session, next call works.
      await callJson(brokeClient, "list_caption_templates", {})
    } finally {
      await brokeClient.close()
    }
  })

  it("a plan that cannot render", async () => {
    const free = await app.createWorkspace({ plan: "free" })
    const freeClient = await connectMcp(app.baseUrl, free.token)
    try {
      const text = await callFailing(freeClient, "render_video", { id: "00000000-0000-4000-8000-000000000000" })
      expect(text).toContain("needs a paid plan")
      expect(text).toContain("free plan")
    } finally {
      await freeClient.close()
    }
  })

  it("an unknown tool lists the tools and nothing else", async () => {
    const text = await callFailing(client, "issue_token", {})
    expect(text).toContain("No tool named \"issue_token\"")
    expect(text).toContain("get_video")
    expect(text).not.toMatch(/issueToken|createWorkspace|revokeToken|setWebhookSecret|admin/i)
  })

  it("after all of those, the same session still lists and calls tools", async () => {
    expect((await client.listTools()).tools.length).toBeGreaterThan(0)
    const { body } = await callJson(client, "list_art_styles", {})
    expect(body.data.length).toBeGreaterThan(0)
  })
})

describe("the spec's call shape", () => {
  it("a bare tools/call POST without initialize is answered", async () => {
    const response = await fetch(`${app.baseUrl}/mcp`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${workspace.token}`,
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "list_caption_templates", arguments: {} } })
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("mcp-session-id")).toBeNull()
    const body = await response.json() as any
    expect(body.id).toBe(7)
    expect(body.result.isError).toBeUndefined()
    const templates = JSON.parse(body.result.content[0].text)
    expect(templates.data.some((t: { id: number }) => t.id < 0)).toBe(true)
  })
})

describe("logging", () => {
  /** The tool-call lines of a read that succeeds, one that fails and a write, logged at `minimum` and above. */
  const toolCallLines = async (minimum: LogLevel.LogLevel) => {
    const lines: Array<{ message: unknown; level: string; annotations: Record<string, unknown> }> = []
    const capture = Logger.make(({ annotations, logLevel, message }) => {
      lines.push({ message, level: logLevel.label, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
    })
    const calls = Effect.gen(function*() {
      const found = yield* (yield* WorkspaceStore).get(workspace.workspaceId)
      const current = Option.getOrThrow(found)
      yield* Effect.provideService(callTool("list_art_styles", {}), CurrentWorkspace, current)
      yield* Effect.provideService(callTool("get_video", { id: 1 }), CurrentWorkspace, current)
      yield* Effect.provideService(callTool("set_workspace_vocabulary", { terms: ["Reelwright"] }), CurrentWorkspace, current)
    }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)), Logger.withMinimumLogLevel(minimum))
    await app.runtime.runPromise(calls)
    return lines.filter((l) => String(l.message).includes("mcp tool call"))
  }

  it("logs every tool call with its tool, outcome and duration; a read that succeeds at debug, as a polled GET", async () => {
    const logged = await toolCallLines(LogLevel.Debug)
    expect(logged.map(({ annotations: { outcome, tool }, level }) => [tool, outcome, level])).toEqual([
      ["list_art_styles", "ok", "DEBUG"],
      ["get_video", "error", "INFO"],
      ["set_workspace_vocabulary", "ok", "INFO"]
    ])
    for (const line of logged) expect(typeof line.annotations.durationMs).toBe("number")
    expect((await toolCallLines(LogLevel.Info)).map((l) => l.annotations.tool)).toEqual(["get_video", "set_workspace_vocabulary"])
  })
})

describe("fields HTTP carries in the URL", () => {
  it("take JSON numbers as tool arguments, with the operation's checks and defaults", async () => {
    const list = toolInput(listVideos)
    expect(await Effect.runPromise(Schema.decodeUnknown(list)({ limit: 5 }))).toMatchObject({ limit: 5 })
    expect(await Effect.runPromise(Schema.decodeUnknown(list)({}))).toMatchObject({ limit: 20 })
    expect(Schema.is(list)({ limit: 500 })).toBe(false)
    expect(Schema.decodeUnknownEither(list)({ limit: 0 })._tag).toBe("Left")
    const template = toolInput(updateCaptionTemplate)
    expect(await Effect.runPromise(Schema.decodeUnknown(template)({ id: 3 }))).toMatchObject({ id: 3 })
    expect(Schema.decodeUnknownEither(template)({ id: "3" })._tag).toBe("Left")
  })
})
