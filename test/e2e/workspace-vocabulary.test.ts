// A workspace's vocabulary (issue 18): kept and replaced over HTTP, MCP and the CLI, refused when a term
// is blank or the list too long, and heard in captions: pocketsphinx's language model has no invented
// name, so without the vocabulary festival's "Quibblethorpe" comes back as other words, with it as itself.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mkdtemp } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { connectMcp, textOf } from "../mcp/mcp-client.ts"
import { startApp, type TestApp } from "../support/app.ts"
import { runCli } from "../support/cli.ts"
import { makeSpokenClip, type SpokenClip } from "../support/clips.ts"
import { call, serveFiles, waitForVideo } from "../support/http-client.ts"

let app: TestApp
let clip: SpokenClip
let files: Awaited<ReturnType<typeof serveFiles>>
let client: Client | undefined

beforeAll(async () => {
  app = await startApp()
  const dir = await mkdtemp(join(tmpdir(), "vocabulary-"))
  clip = await makeSpokenClip({ text: "Our friend Quibblethorpe lives by the sea.", width: 360, height: 640, fps: 30, silenceBefore: 0.3, silenceAfter: 0.5, dir })
  files = await serveFiles({ "clip.mp4": { path: clip.path, contentType: "video/mp4" } })
})

afterAll(async () => {
  await client?.close()
  await files?.close()
  await app?.close()
})

const captionedWords = async (token: string) => {
  const created = await call(app.baseUrl, "/v1/caption-videos", { token, json: { url: files.url("clip.mp4") } })
  const video = await waitForVideo(app.baseUrl, token, created.body.id)
  expect(video.status).toBe("completed")
  return (await call(app.baseUrl, `/v1/videos/${video.id}/captions`, { token })).body.words.map((w: { text: string }) => w.text)
}

describe("workspace vocabulary", () => {
  it("is empty at first, replaced whole, each term trimmed and kept once; bad terms are a 400 naming them", async () => {
    const { token } = await app.createWorkspace()
    expect((await call(app.baseUrl, "/v1/workspace/vocabulary", { token })).body).toEqual({ terms: [] })
    const put = await call(app.baseUrl, "/v1/workspace/vocabulary", { token, method: "PUT", json: { terms: [" Quibblethorpe ", "quibblethorpe", "GPT-4o"] } })
    expect(put.status).toBe(200)
    expect(put.body).toEqual({ terms: ["Quibblethorpe", "GPT-4o"] })
    expect((await call(app.baseUrl, "/v1/workspace/vocabulary", { token })).body).toEqual({ terms: ["Quibblethorpe", "GPT-4o"] })
    const blank = await call(app.baseUrl, "/v1/workspace/vocabulary", { token, method: "PUT", json: { terms: ["ok", "  "] } })
    expect(blank.status).toBe(400)
    expect(blank.body.error.details.field).toBe("terms.1")
    const tooMany = await call(app.baseUrl, "/v1/workspace/vocabulary", { token, method: "PUT", json: { terms: Array.from({ length: 201 }, (_, i) => `t${i}`) } })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.details.field).toBe("terms")
    // Another workspace's stays its own.
    expect((await call(app.baseUrl, "/v1/workspace/vocabulary", { token: (await app.createWorkspace()).token })).body).toEqual({ terms: [] })
  })

  it("is the same through MCP and the CLI", async () => {
    const { token } = await app.createWorkspace()
    client = await connectMcp(app.baseUrl, token)
    const set = await client.callTool({ name: "set_workspace_vocabulary", arguments: { terms: ["Reelwright"] } })
    expect(JSON.parse(textOf(set))).toEqual({ terms: ["Reelwright"] })
    expect(JSON.parse(textOf(await client.callTool({ name: "get_workspace_vocabulary", arguments: {} })))).toEqual({ terms: ["Reelwright"] })
    const env = { REELWRIGHT_TOKEN: token }
    const cliSet = await runCli(app.baseUrl, ["set-vocabulary", "--terms", '["Zorblatt","Reelwright"]'], env)
    expect(cliSet.code, cliSet.stderr).toBe(0)
    expect(JSON.parse((await runCli(app.baseUrl, ["vocabulary"], env)).stdout)).toEqual({ terms: ["Zorblatt", "Reelwright"] })
  })

  it("turns what pocketsphinx heard of an invented name into the name", async () => {
    const without = await captionedWords((await app.createWorkspace()).token)
    expect(without).not.toContain("Quibblethorpe")
    const { token } = await app.createWorkspace()
    await call(app.baseUrl, "/v1/workspace/vocabulary", { token, method: "PUT", json: { terms: ["Quibblethorpe"] } })
    const withVocabulary = await captionedWords(token)
    expect(withVocabulary).toContain("Quibblethorpe")
    // The words around the name are as heard without the vocabulary.
    expect(withVocabulary.slice(0, 2)).toEqual(without.slice(0, 2))
    expect(withVocabulary.slice(-3)).toEqual(without.slice(-3))
  })
})
