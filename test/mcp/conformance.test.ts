// The official conformance suite's server scenarios that apply to this server, run against /mcp.
// The suite sends no auth header, so a bearer-adding proxy on loopback sits in front; it forwards
// Host and Origin as sent, so the DNS rebinding scenario reaches the real check. The suite's output
// is captured (its "Total:" line must not end up in this run's output) and its checks.json read.
import { execFile } from "node:child_process"
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises"
import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startApp, type TestApp } from "../support/app.ts"

const SCENARIOS = ["server-initialize", "ping", "tools-list", "tools-call-error", "dns-rebinding-protection"] as const

const CLI = join(process.cwd(), "node_modules/@modelcontextprotocol/conformance/dist/index.js")

let app: TestApp
let proxy: Server
let proxyUrl: string
let outDir: string

/** Forwards every request to the app with the workspace's bearer added, headers otherwise untouched. */
const bearerProxy = (target: URL, token: string): Promise<Server> =>
  new Promise((resolve) => {
    const server = createServer((incoming, outgoing) => {
      const forwarded = request({
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` }
      }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(outgoing)
      })
      forwarded.on("error", () => outgoing.writeHead(502).end())
      incoming.pipe(forwarded)
    })
    server.listen(0, "127.0.0.1", () => resolve(server))
  })

interface Check {
  readonly id: string
  readonly status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO"
  readonly errorMessage?: string
}

const runScenario = (scenario: string, dir: string) =>
  new Promise<{ code: number; output: string }>((resolve) => {
    execFile(process.execPath, [CLI, "server", "--url", `${proxyUrl}/mcp`, "--scenario", scenario, "-o", dir], {
      timeout: 60_000
    }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: `${stdout}${stderr}` })
    })
  })

/** checks.json, wherever under the output folder this version of the suite writes it. */
const readChecks = async (dir: string): Promise<ReadonlyArray<Check>> => {
  const entries = await readdir(dir, { recursive: true })
  const found = entries.filter((e) => e.endsWith("checks.json"))
  expect(found, `checks.json under ${dir}`).toHaveLength(1)
  return JSON.parse(await readFile(join(dir, found[0]!), "utf8")) as ReadonlyArray<Check>
}

beforeAll(async () => {
  app = await startApp({ worker: false })
  const { token } = await app.createWorkspace()
  proxy = await bearerProxy(new URL(app.baseUrl), token)
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
  outDir = await mkdtemp(join(tmpdir(), "mcp-conformance-"))
})

afterAll(async () => {
  proxy?.closeAllConnections()
  await new Promise((resolve) => (proxy === undefined ? resolve(undefined) : proxy.close(resolve)))
  await app?.close()
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true })
})

describe("MCP conformance (server scenarios)", () => {
  for (const scenario of SCENARIOS) {
    it(scenario, async () => {
      const dir = join(outDir, scenario)
      const { code, output } = await runScenario(scenario, dir)
      expect(code, output).toBe(0)
      expect(output).toContain("0 failed")
      const checks = await readChecks(dir)
      expect(checks.filter((c) => c.status === "FAILURE"), output).toEqual([])
      expect(checks.some((c) => c.status === "SUCCESS")).toBe(true)
    }, 90_000)
  }
})
