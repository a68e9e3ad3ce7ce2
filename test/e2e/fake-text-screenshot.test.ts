// Fake-text screenshots over HTTP and MCP: a png of the asked size is stored and downloadable,
// 10 credits are charged once, pictures come from uploads, and refused requests (bad fields, short
// credits) store and charge nothing.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { Effect } from "effect"
import { readdir } from "node:fs/promises"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ledger } from "../../domain/ports/ledger.ts"
import { FAKE_TEXT_SCREENSHOT_CREDITS } from "../../domain/pricing.ts"
import { connectMcp, textOf } from "../mcp/mcp-client.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { call } from "../support/http-client.ts"

let app: TestApp

beforeAll(async () => {
  app = await startApp({ worker: false })
})

afterAll(async () => {
  await app?.close()
})

const CONVERSATION = {
  participants: [{ id: "sam", name: "Sam", me: true }, { id: "maya", name: "Maya Lopez" }],
  messages: [
    { from: "maya", text: "are you coming tonight? 🎉" },
    { from: "sam", text: "yes! leaving now" }
  ]
}

const ledgerOf = (workspaceId: string) =>
  app.runtime.runPromise(Effect.flatMap(Ledger, (l) => Effect.all([l.balance(workspaceId), l.list(workspaceId)])))

const blobsOf = async (workspaceId: string): Promise<ReadonlyArray<string>> =>
  readdir(join(app.dataDir, "blobs", workspaceId)).catch(() => [])

const pixelsOf = async (url: string) => {
  const response = await fetch(url)
  expect(response.status).toBe(200)
  expect(response.headers.get("content-type")).toContain("image/png")
  const image = await loadImage(Buffer.from(await response.arrayBuffer()))
  const ctx = createCanvas(image.width, image.height).getContext("2d")
  ctx.drawImage(image, 0, 0)
  return { image, data: ctx.getImageData(0, 0, image.width, image.height).data }
}

describe("POST /v1/fake-text-screenshots", () => {
  it("answers a downloadable 1080x1920 png and charges 10 credits once", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 25 })
    const made = await call(app.baseUrl, "/v1/fake-text-screenshots", {
      token,
      json: { ...CONVERSATION, theme: "whatsapp", webhookUrl: "https://example.com/hook?secret=1" }
    })
    expect(made.status).toBe(200)
    expect(made.body).toMatchObject({ width: 1080, height: 1920, credits: FAKE_TEXT_SCREENSHOT_CREDITS })
    const { image } = await pixelsOf(made.body.url)
    expect([image.width, image.height]).toEqual([1080, 1920])
    expect(made.body.size).toBe((await (await fetch(made.body.url)).arrayBuffer()).byteLength)
    expect(await blobsOf(workspaceId)).toHaveLength(1)

    const [balance, entries] = await ledgerOf(workspaceId)
    expect(balance).toBe(25 - FAKE_TEXT_SCREENSHOT_CREDITS)
    expect(entries.filter((e) => e.operation === "screenshot").map((e) => e.amount)).toEqual([-FAKE_TEXT_SCREENSHOT_CREDITS])
  })

  it("draws an uploaded picture sent in a message, at the height the messages need with `fit`", async () => {
    const { token } = await app.createWorkspace()
    const red = createCanvas(300, 200)
    const ctx = red.getContext("2d")
    ctx.fillStyle = "#FF0000"
    ctx.fillRect(0, 0, 300, 200)
    const form = new FormData()
    form.append("file", new Blob([red.toBuffer("image/png")], { type: "image/png" }), "red.png")
    const upload = await call(app.baseUrl, "/v1/files", { token, form })
    expect(upload.status).toBe(200)
    const made = await call(app.baseUrl, "/v1/fake-text-screenshots", {
      token,
      json: { ...CONVERSATION, size: "fit", messages: [...CONVERSATION.messages, { from: "sam", imageKey: upload.body.key }] }
    })
    expect(made.status).toBe(200)
    expect(made.body.height).toBeLessThan(1920)
    const { image, data } = await pixelsOf(made.body.url)
    expect(image.height).toBe(made.body.height)
    let reds = 0
    for (let i = 0; i < data.length; i += 4) if (data[i]! > 240 && data[i + 1]! < 20 && data[i + 2]! < 20) reds++
    expect(reds).toBeGreaterThan(100_000)
  })

  it("refuses short credits with 402 before drawing, storing and charging nothing", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: FAKE_TEXT_SCREENSHOT_CREDITS - 1 })
    const broke = await call(app.baseUrl, "/v1/fake-text-screenshots", { token, json: CONVERSATION })
    expect(broke.status).toBe(402)
    expect(broke.body.error.details).toMatchObject({ required: FAKE_TEXT_SCREENSHOT_CREDITS, balance: FAKE_TEXT_SCREENSHOT_CREDITS - 1 })
    expect((await ledgerOf(workspaceId))[0]).toBe(FAKE_TEXT_SCREENSHOT_CREDITS - 1)
    expect(await blobsOf(workspaceId)).toEqual([])
  })

  it("refuses bad input with 400 naming the field, charging nothing", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 100 })
    const post = (json: unknown) => call(app.baseUrl, "/v1/fake-text-screenshots", { token, json })
    const long = await post({ ...CONVERSATION, messages: [{ from: "sam", text: "x".repeat(1001) }] })
    expect(long.status).toBe(400)
    expect(long.body.error.details.field).toBe("messages.0.text")
    const stranger = await post({ ...CONVERSATION, messages: [{ from: "ghost", text: "boo" }] })
    expect(stranger.status).toBe(400)
    expect(stranger.body.error.details.field).toBe("messages.0.from")
    const noFile = await post({ ...CONVERSATION, messages: [{ from: "sam", imageKey: "nope" }] })
    expect(noFile.status).toBe(400)
    expect(noFile.body.error.details.field).toBe("messages.0.imageKey")
    const theme = await post({ ...CONVERSATION, theme: "telegram" })
    expect(theme.status).toBe(400)
    expect(theme.body.error.details.field).toBe("theme")
    const hook = await post({ ...CONVERSATION, webhookUrl: "http://example.com/hook" })
    expect(hook.status).toBe(400)
    expect(hook.body.error.details.field).toBe("webhookUrl")
    expect((await ledgerOf(workspaceId))[0]).toBe(100)
    expect(await blobsOf(workspaceId)).toEqual([])
  })
})

describe("tool create_fake_text_screenshot", () => {
  let client: Client
  afterAll(async () => {
    await client?.close()
  })

  it("draws the png and charges what the HTTP call charges; bad arguments come back as isError", async () => {
    const { token, workspaceId } = await app.createWorkspace({ credits: 30 })
    client = await connectMcp(app.baseUrl, token)
    const result = await client.callTool({ name: "create_fake_text_screenshot", arguments: { ...CONVERSATION, theme: "instagram" } })
    expect(result.isError, textOf(result)).not.toBe(true)
    const body = JSON.parse(textOf(result))
    expect(body).toMatchObject({ width: 1080, height: 1920, credits: FAKE_TEXT_SCREENSHOT_CREDITS })
    expect((await pixelsOf(body.url)).image.width).toBe(1080)
    expect((await ledgerOf(workspaceId))[0]).toBe(30 - FAKE_TEXT_SCREENSHOT_CREDITS)

    const bad = await client.callTool({
      name: "create_fake_text_screenshot",
      arguments: { ...CONVERSATION, messages: [{ from: "ghost", text: "boo" }] }
    })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toContain("messages.0.from")
    expect((await ledgerOf(workspaceId))[0]).toBe(30 - FAKE_TEXT_SCREENSHOT_CREDITS)
  })
})
