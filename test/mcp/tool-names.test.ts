// The spec's 19 tool names, held literally. Every operation that exists has its tool under its spec
// name; the ones still to come are named here, and this test fails when one lands without being
// moved, or when a tool appears that is neither the spec's nor a documented extra.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { catalogue } from "../../src/catalogue.ts"
import type { AnyOperation } from "../../src/kernel/operation.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { connectMcp } from "./mcp-client.ts"

const SPEC_TOOLS = [
  "create_caption_video",
  "create_ai_video_v3",
  "create_ai_video",
  "create_quiz_video",
  "create_gameplay_video",
  "create_fake_text_video",
  "get_video",
  "render_video",
  "upload_file",
  "list_voices",
  "text_to_speech",
  "create_caption_removal",
  "get_caption_removal",
  "create_fake_text_screenshot",
  "list_caption_templates",
  "list_art_styles",
  "get_workspace",
  "list_credit_logs",
  "list_balance_logs"
] as const

/** Spec tools whose operations later issues add. Move a name out of here when its operation lands. */
const STILL_TO_COME: ReadonlyArray<string> = []

/** Tools beyond the spec's 19, each documented in the README. */
const EXTRA: ReadonlyArray<string> = [
  "edit_captions",
  "get_workspace_vocabulary",
  "set_workspace_vocabulary",
  "list_videos",
  "cancel_video",
  "delete_video_media",
  "create_webhook_secret",
  "list_webhook_secrets",
  "update_webhook_secret",
  "delete_webhook_secret",
  "create_clips",
  "get_clips"
]

const EXISTING = SPEC_TOOLS.filter((name) => !STILL_TO_COME.includes(name))
const operations = catalogue as ReadonlyArray<AnyOperation>
const catalogueTools = operations.flatMap((op) => (op.tool === null ? [] : [op.tool]))

let app: TestApp
let client: Client
let offered: ReadonlyArray<string>

beforeAll(async () => {
  app = await startApp({ worker: false })
  client = await connectMcp(app.baseUrl, (await app.createWorkspace()).token)
  offered = (await client.listTools()).tools.map((t) => t.name)
})

afterAll(async () => {
  await client?.close()
  await app?.close()
})

describe("tool names", () => {
  it("the spec names 19 distinct tools, and the ones still to come are among them", () => {
    expect(new Set(SPEC_TOOLS).size).toBe(19)
    for (const name of [...STILL_TO_COME, ...EXTRA]) expect(SPEC_TOOLS.includes(name as never) !== EXTRA.includes(name)).toBe(true)
  })

  it("every spec tool whose operation exists is offered under exactly its spec name", () => {
    for (const name of EXISTING) {
      expect(catalogueTools, `operation with tool ${name}`).toContain(name)
      expect(offered, `tools/list offers ${name}`).toContain(name)
    }
  })

  it("a tool still to come that appears must be moved to the existing ones", () => {
    const landed = STILL_TO_COME.filter((name) => catalogueTools.includes(name) || offered.includes(name))
    expect(landed, "these tools exist now: remove them from STILL_TO_COME").toEqual([])
  })

  it("offers nothing outside the spec's names and the documented extras", () => {
    expect([...offered].sort()).toEqual([...EXISTING, ...EXTRA].sort())
    expect(new Set(offered).size).toBe(offered.length)
  })

  it("no admin operation is a tool", () => {
    const admin = operations.filter((op) => op.access === "admin")
    expect(admin.length).toBeGreaterThan(0)
    for (const op of admin) expect(op.tool, op.name).toBeNull()
    for (const op of operations.filter((o) => o.tool !== null)) expect(op.access, op.name).toBe("workspace")
  })
})
