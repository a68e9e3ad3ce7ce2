// The served /openapi.json as generators and linters read it: `redocly lint` with its recommended rules
// (redocly.yaml) finds nothing, and what the lint cannot see holds too: this deployment as the server,
// integers typed as integers, uploads as binary, every error answered in the one `Error` body, examples on
// every operation, no titles that only name a filter.
import { execFile } from "node:child_process"
import { mkdtemp, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../support/app.ts"

const run = promisify(execFile)

type Json = { readonly [key: string]: any }

let app: TestApp
let document: Json

const operations = (): Array<[string, Json]> =>
  Object.entries<Json>(document.paths).flatMap(([path, methods]) =>
    Object.entries<Json>(methods).map(([method, op]): [string, Json] => [`${method} ${path}`, op])
  )

const nodes = (node: unknown): Array<Json> =>
  Array.isArray(node)
    ? node.flatMap(nodes)
    : typeof node === "object" && node !== null
    ? [node as Json, ...Object.values(node).flatMap(nodes)]
    : []

beforeAll(async () => {
  app = await startApp({ worker: false })
  document = (await (await fetch(`${app.baseUrl}/openapi.json`)).json()) as Json
})
afterAll(() => app?.close())

describe("the served OpenAPI document", () => {
  it("passes redocly lint's recommended rules with no error and no warning", async () => {
    const file = join(await mkdtemp(join(tmpdir(), "openapi-lint-")), "openapi.json")
    await writeFile(file, JSON.stringify(document))
    const { stdout } = await run(
      join("node_modules", ".bin", "redocly"),
      ["lint", file, "--config", "redocly.yaml", "--format=json"],
      { env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" } }
    ).catch((failed: { stdout: string }) => failed)
    const report = JSON.parse(stdout)
    expect(report.problems).toEqual([])
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 })
  })

  it("names this deployment as its server", () => {
    expect(document.servers).toEqual([{ url: app.baseUrl, description: "This deployment." }])
  })

  it("types query and path numbers as integers", () => {
    const numeric = operations().flatMap(([name, op]) =>
      (op.parameters ?? []).filter((p: Json) => ["limit", "id"].includes(p.name) && p.schema.pattern?.includes("[0-9]"))
        .map((p: Json) => `${name} ${p.name}`)
    )
    expect(numeric).toEqual([])
    const limit = document.paths["/v1/videos"].get.parameters.find((p: Json) => p.name === "limit")
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 100 })
    const templateId = document.paths["/v1/caption-templates/{id}"].patch.parameters.find((p: Json) => p.name === "id")
    expect(templateId.schema).toMatchObject({ type: "integer", minimum: 1 })
  })

  it("declares uploads as binary", () => {
    const forms = operations().filter(([, op]) => op.requestBody?.content["multipart/form-data"] !== undefined)
    expect(forms.map(([name]) => name)).toEqual(["post /v1/caption-videos", "post /v1/files", "post /v1/caption-remover", "post /v1/clips"])
    for (const [, op] of forms) {
      const ref = op.requestBody.content["multipart/form-data"].schema.$ref.split("/").pop()
      expect(document.components.schemas[ref].properties.file).toMatchObject({ type: "string", format: "binary" })
    }
  })

  it("answers every error in the one Error body, with the statuses each route can send", () => {
    for (const [, op] of operations()) {
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        if (status === "200") continue
        expect(response.content).toEqual({ "application/json": { schema: { $ref: "#/components/schemas/Error" } } })
      }
    }
    expect(document.components.schemas.HttpApiDecodeError).toBeUndefined()
    const statuses = (path: string, method: string) => Object.keys(document.paths[path][method].responses)
    // Idempotent and charged: 409 for a reused key, 402 for too few credits; a body: 408, 413 and 415.
    expect(statuses("/v1/text-to-speech", "post"))
      .toEqual(["200", "400", "401", "402", "408", "409", "413", "415", "429", "431", "503", "default"])
    // No input at all: nothing to be invalid, no body to be too large.
    expect(statuses("/v1/workspace", "get")).toEqual(["200", "401", "429", "431", "503", "default"])
    expect(statuses("/v1/videos/{id}", "get")).toEqual(["200", "400", "401", "404", "429", "431", "503", "default"])
    // The operator's routes are not rate limited.
    expect(statuses("/admin/queue", "get")).toEqual(["200", "401", "431", "503", "default"])
  })

  it("has an example of every JSON request and every success", () => {
    const missing = operations().flatMap(([name, op]) => [
      ...Object.entries<Json>(op.requestBody?.content ?? {})
        .filter(([type, media]) => type === "application/json" && media.example === undefined)
        .map(() => `${name} request`),
      ...Object.values<Json>(op.responses["200"].content ?? {}).filter((media) => media.example === undefined).map(() => `${name} 200`)
    ])
    expect(missing).toEqual([])
  })

  it("has no title that only names a filter", () => {
    const titles = nodes(document).map((n) => n.title).filter((t) => typeof t === "string")
    expect(titles.filter((t) => /^[a-z][A-Za-z]*(\(.*\))?$/.test(t))).toEqual([])
  })
})
