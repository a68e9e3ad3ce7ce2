// What an assistant reads of each tool, through the real SDK client over HTTP: a title, all four hints
// as the declaration implies them, schemas written in place (no `$defs`), descriptions in tool terms
// with a price. Then calls: each answer's structuredContent is checked against the tool's outputSchema
// with the validator the SDK uses (its client also checks on every callTool, and throws on a mismatch),
// and the screenshot and speech tools send their file as image and audio content.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { INLINE_MEDIA_BYTES, mediaForm } from "../../adapters/mcp/tool-media.ts"
import { catalogue } from "../../src/catalogue.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { connectMcp } from "./mcp-client.ts"

let app: TestApp
let client: Client
let tools: ReadonlyMap<string, Tool>

const validator = new AjvJsonSchemaValidator()

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const

/** Every `description` string anywhere in a schema. */
const descriptionsIn = (node: unknown): Array<string> =>
  Array.isArray(node)
    ? node.flatMap(descriptionsIn)
    : typeof node === "object" && node !== null
    ? Object.entries(node).flatMap(([key, value]) => (key === "description" && typeof value === "string" ? [value] : descriptionsIn(value)))
    : []

const toolNamed = (name: string): Tool => {
  const tool = tools.get(name)
  expect(tool, name).toBeDefined()
  return tool!
}

interface Content {
  readonly type: string
  readonly text?: string
  readonly data?: string
  readonly mimeType?: string
}

/** Calls a tool that must succeed; its structuredContent must match its outputSchema and its JSON text. */
const checkedCall = async (name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args })
  const content = result.content as ReadonlyArray<Content>
  expect(result.isError, `${name}: ${content[0]?.text}`).not.toBe(true)
  const { outputSchema } = toolNamed(name)
  expect(outputSchema, `${name} has an outputSchema`).toBeDefined()
  // The SDK's Tool type and its validator's JSON Schema type differ only in optional properties.
  const verdict = validator.getValidator(outputSchema as JsonSchemaType)(result.structuredContent)
  expect(verdict.errorMessage, `${name}'s structuredContent against its outputSchema`).toBeUndefined()
  expect(verdict.valid).toBe(true)
  expect(content[0]?.type).toBe("text")
  expect(JSON.parse(content[0]?.text ?? "null")).toEqual(result.structuredContent)
  return { structured: result.structuredContent as Record<string, any>, content }
}

const bytesAt = async (url: string): Promise<Buffer> => {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  return Buffer.from(await response.arrayBuffer())
}

beforeAll(async () => {
  // No worker: a created video stays `processing`, so it can be cancelled.
  app = await startApp({ worker: false })
  client = await connectMcp(app.baseUrl, (await app.createWorkspace({ credits: 1000 })).token)
  tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]))
})

afterAll(async () => {
  await client?.close()
  await app?.close()
})

describe("tools/list", () => {
  it("gives every tool a title, all four hints, and object schemas with nothing under $defs", () => {
    expect(tools.size).toBeGreaterThan(20)
    for (const tool of tools.values()) {
      expect(tool.title, tool.name).toMatch(/\w/)
      expect(tool.annotations?.title, tool.name).toBe(tool.title)
      for (const hint of HINTS) expect(typeof tool.annotations?.[hint], `${tool.name} ${hint}`).toBe("boolean")
      expect(tool.inputSchema.type, tool.name).toBe("object")
      expect(tool.outputSchema?.type, `${tool.name} outputSchema`).toBe("object")
      const schemas = JSON.stringify([tool.inputSchema, tool.outputSchema])
      expect(schemas, tool.name).not.toContain("$defs")
      expect(schemas, tool.name).not.toContain("$ref")
    }
  })

  it("derives the hints from the declaration", () => {
    const byTool = new Map(catalogue.flatMap((op) => (op.tool === null ? [] : [[op.tool, op] as const])))
    for (const tool of tools.values()) {
      const method = byTool.get(tool.name)!.http.method
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(method === "GET")
      if (method === "DELETE") expect(tool.annotations?.destructiveHint, tool.name).toBe(true)
      if (method === "POST") expect(tool.annotations?.idempotentHint, tool.name).toBe(false)
    }
    expect(toolNamed("delete_video_media").annotations).toMatchObject({ destructiveHint: true, idempotentHint: true, openWorldHint: false })
    expect(toolNamed("cancel_video").annotations).toMatchObject({ destructiveHint: true, idempotentHint: false, openWorldHint: true })
    expect(toolNamed("create_caption_video").annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: true })
    expect(toolNamed("create_fake_text_screenshot").annotations).toMatchObject({ destructiveHint: false, openWorldHint: false })
    expect(toolNamed("get_video").annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false })
  })

  it("words descriptions for an assistant: tool names, not HTTP routes or forms, with the price", () => {
    for (const tool of tools.values()) {
      const texts = [tool.description ?? "", ...descriptionsIn(tool.inputSchema), ...descriptionsIn(tool.outputSchema)]
      for (const text of texts) expect(text, tool.name).not.toMatch(/\/v1\/|multipart|\b(GET|POST|PUT|PATCH|DELETE) \//)
      expect(tool.description, tool.name).toMatch(/ (Free\.|Costs: [^.]*\d+ (credits|cents) per)/)
    }
    const caption = toolNamed("create_caption_video")
    expect(caption.description).toContain("poll get_video")
    expect(caption.description).toContain("Next: call get_video with the returned `id`")
    expect(caption.description).toMatch(/Costs: 2 credits per started minute of source for captions/)
    expect(toolNamed("list_videos").description).toContain("Next: while `nextCursor` is not null, call list_videos")
    // A filter's description survives into the JSON Schema, not Effect's "a string at most N characters".
    const fields = caption.inputSchema.properties as Record<string, { description: string }>
    expect(fields["url"]!.description).toMatch(/^Address of the media file itself/)
    expect(fields["webhookUrl"]!.description).toMatch(/^HTTPS callback fired once/)
  })
})

describe("structuredContent matches outputSchema", () => {
  it("for every read tool that needs no arguments", async () => {
    const reads = [...tools.values()].filter((t) => t.annotations?.readOnlyHint === true && (t.inputSchema.required ?? []).length === 0)
    expect(reads.map((t) => t.name)).toEqual(expect.arrayContaining(["list_videos", "get_workspace", "list_voices", "list_credit_logs"]))
    for (const tool of reads) await checkedCall(tool.name, {})
  })

  it("create_caption_video, then get_video, list_videos, cancel_video and delete_video_media", async () => {
    const { structured: created } = await checkedCall("create_caption_video", { url: "https://example.com/clip.mp4", render: {} })
    expect(created.status).toBe("processing")
    const { structured: got } = await checkedCall("get_video", { id: created.id })
    expect(got.id).toBe(created.id)
    const { structured: listed } = await checkedCall("list_videos", { limit: 5 })
    expect(listed.data.map((v: { id: string }) => v.id)).toContain(created.id)
    const { structured: cancelled } = await checkedCall("cancel_video", { id: created.id })
    expect(cancelled.status).toBe("failed")
    expect(cancelled.error).toMatch(/^cancelled/)
    const { structured: stripped } = await checkedCall("delete_video_media", { id: created.id })
    expect(stripped.mediaDeletedAt).toEqual(expect.any(String))
    await checkedCall("list_videos", { status: "failed" })
  })

  it("set_workspace_vocabulary", async () => {
    await checkedCall("set_workspace_vocabulary", { terms: ["Reelwright"] })
  })

  it("create_fake_text_screenshot sends the png as image content", async () => {
    const { content, structured } = await checkedCall("create_fake_text_screenshot", {
      participants: [{ id: "sam", name: "Sam", me: true }, { id: "maya", name: "Maya" }],
      messages: [{ from: "maya", text: "coming tonight?" }, { from: "sam", text: "on my way" }]
    })
    expect(structured.url).toMatch(/^http/)
    const image = content.find((c) => c.type === "image")
    expect(image?.mimeType).toBe("image/png")
    const png = Buffer.from(image!.data!, "base64")
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(png.equals(await bytesAt(structured.url))).toBe(true)
  })

  it("text_to_speech sends the mp3 as audio content", async () => {
    const { content, structured } = await checkedCall("text_to_speech", { script: "Hello there, this is a short test." })
    const audio = content.find((c) => c.type === "audio")
    expect(audio?.mimeType).toBe("audio/mpeg")
    const mp3 = Buffer.from(audio!.data!, "base64")
    expect(mp3.length).toBe(structured.size)
    expect(mp3.equals(await bytesAt(structured.url))).toBe(true)
  }, 60_000)
})

describe("a file too big to inline", () => {
  it("is sent as a resource link to its URL; a picture or sound under the cap inline", () => {
    const url = "https://videos.example.com/media/tok/speech.mp3"
    const big = { contentType: "audio/mpeg", bytes: INLINE_MEDIA_BYTES + 1, name: "speech.mp3" }
    expect(mediaForm(big, url)).toEqual({
      link: { type: "resource_link", uri: url, name: "speech.mp3", mimeType: "audio/mpeg", size: INLINE_MEDIA_BYTES + 1 }
    })
    expect(mediaForm({ ...big, bytes: 1000 }, url)).toEqual({ inline: "audio" })
    expect(mediaForm({ contentType: "image/png", bytes: 1000, name: "chat.png" }, url)).toEqual({ inline: "image" })
    expect(mediaForm({ contentType: "video/mp4", bytes: 1000, name: "clip.mp4" }, url)).toHaveProperty("link")
  })
})
