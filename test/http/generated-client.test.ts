// The OpenAPI document as a generator reads it: openapi-typescript writes the types from the served
// /openapi.json, the TypeScript compiler checks a small openapi-fetch program against them
// (test/generated-client/program.ts), and the program runs against a live server: create by URL,
// poll to the end, list with `limit`, a 400 and a 404, each answer in the shape the document declares.
import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../support/app.ts"
import { makeSpokenClip } from "../support/clips.ts"
import { serveFiles } from "../support/http-client.ts"

const servedDocument = async (baseUrl: string): Promise<OpenAPI3> => (await fetch(`${baseUrl}/openapi.json`)).json() as Promise<OpenAPI3>

const CLIENT_DIR = join(import.meta.dirname, "..", "generated-client")
const PROGRAM = join(CLIENT_DIR, "program.ts")

/** The project's own compiler settings that matter to a client: strict, and exact optional properties. */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"]
}

let app: TestApp
let token: string
let files: Awaited<ReturnType<typeof serveFiles>>

beforeAll(async () => {
  app = await startApp()
  token = (await app.createWorkspace()).token
  const dir = await mkdtemp(join(tmpdir(), "generated-client-"))
  const clip = await makeSpokenClip({ text: "A client made from the document.", width: 360, height: 640, fps: 30, dir })
  files = await serveFiles({ "clip.mp4": { path: clip.path, contentType: "video/mp4" } })
})

afterAll(async () => {
  await files?.close()
  await app?.close()
})

describe("a client generated from /openapi.json", () => {
  it("compiles, typed from the document, and runs against the server", async () => {
    const document = await servedDocument(app.baseUrl)
    await writeFile(join(CLIENT_DIR, "reelwright-api.ts"), astToString(await openapiTS(document)))

    const program = ts.createProgram([PROGRAM], COMPILER_OPTIONS)
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
    expect(problems).toEqual([])

    const { run } = await import(PROGRAM)
    const outcome = await run(app.baseUrl, token, files.url("clip.mp4"))
    expect(outcome.status).toBe("completed")
    expect(outcome.polls).toBeGreaterThan(0)
    expect(outcome.listed).toEqual([outcome.id])
    expect(outcome.tooLong).toEqual({ status: 400, code: "invalid_input", field: "limit" })
    expect(outcome.missing).toEqual({ status: 404, code: "not_found" })
  })

  it("stops compiling when the document types a number as text", async () => {
    const document = await servedDocument(app.baseUrl)
    const videos = document.paths?.["/v1/videos"] as { get: { parameters: Array<{ name: string; schema: object }> } }
    const parameters = videos.get.parameters
    parameters.find((p) => p.name === "limit")!.schema = { type: "string" }
    await writeFile(join(CLIENT_DIR, "reelwright-api.ts"), astToString(await openapiTS(document)))
    const program = ts.createProgram([PROGRAM], COMPILER_OPTIONS)
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))
    expect(problems.length).toBeGreaterThan(0)
  })
})
