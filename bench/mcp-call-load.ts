// What answering through MCP costs over plain HTTP: the same read (the art styles) as
//   http: GET /v1/art-styles
//   mcp:  POST /mcp, a bare tools/call list_art_styles (stateless, no initialize), answered by the MCP lane
// on one service process (embedded defaults, role api), 20 connections for 5 s each after a warm-up.
// The ratio mcp/http says how much of the HTTP throughput the MCP surface keeps.
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { httpLoad, type Load, type LoadRequest } from "./http-load.ts"
import { startService } from "./service-process.ts"

const BENCH = "mcp-call-load"
const CONNECTIONS = 20
const SECONDS = 5
const WARMUP_SECONDS = 1

const toolCall = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_art_styles", arguments: {} } })

const figuresOf = (name: string, l: Load): ReadonlyArray<Figure> => [
  { bench: BENCH, name: `${name}: throughput`, value: l.requestsPerSecond, unit: "req/s", note: l.failures > 0 ? `${l.failures} failed requests` : "" },
  { bench: BENCH, name: `${name}: p99 latency`, value: l.p99Ms, unit: "ms" },
  { bench: BENCH, name: `${name}: server CPU per request`, value: l.cpuMsPerRequest, unit: "ms", note: l.cpuMsPerRequest === null ? "no /proc here" : "" }
]

/** Fails early, with the answer, when a request does not do what the load is meant to repeat. */
const checkOnce = async (request: LoadRequest): Promise<void> => {
  const response = await fetch(request.url, {
    method: request.body === undefined ? "GET" : "POST",
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body })
  })
  const text = await response.text()
  if (!response.ok || text.includes('"isError":true')) throw new Error(`${request.url} answered ${response.status}: ${text.slice(0, 300)}`)
}

export const mcpCallLoad = async (): Promise<ReadonlyArray<Figure>> => {
  const saved = process.env["ROLE"]
  process.env["ROLE"] = "api"
  const service = await startService().finally(() => {
    if (saved === undefined) delete process.env["ROLE"]
    else process.env["ROLE"] = saved
  })
  try {
    const authorization = `Bearer ${service.token}`
    const http: LoadRequest = { url: `${service.baseUrl}/v1/art-styles`, headers: { authorization } }
    const mcp: LoadRequest = {
      url: `${service.baseUrl}/mcp`,
      headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: toolCall
    }
    await checkOnce(http)
    await checkOnce(mcp)
    const options = { connections: CONNECTIONS, serverPid: service.pid }
    await httpLoad(http, { ...options, seconds: WARMUP_SECONDS })
    const httpFigures = await httpLoad(http, { ...options, seconds: SECONDS })
    await httpLoad(mcp, { ...options, seconds: WARMUP_SECONDS })
    const mcpFigures = await httpLoad(mcp, { ...options, seconds: SECONDS })
    console.log(`${BENCH}: http ${httpFigures.requestsPerSecond.toFixed(0)} req/s, mcp ${mcpFigures.requestsPerSecond.toFixed(0)} req/s`)
    return [
      ...figuresOf("http GET /v1/art-styles", httpFigures),
      ...figuresOf("mcp tools/call list_art_styles", mcpFigures),
      { bench: BENCH, name: "req/s mcp/http", value: mcpFigures.requestsPerSecond / httpFigures.requestsPerSecond, unit: "x" }
    ]
  } finally {
    await service.stop()
  }
}

if (isEntryPoint(import.meta.url)) await report(await mcpCallLoad())
