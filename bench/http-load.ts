// Load from autocannon in a process of its own, with the server's CPU time per answered request read
// from /proc: the figures the load benchmarks share.
import { execFile } from "node:child_process"
import { createRequire } from "node:module"
import { promisify } from "node:util"
import { cpuMsOf } from "./process-cpu.ts"

const run = promisify(execFile)
const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon")

export interface Load {
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  /** Answers other than 2xx, errors and timeouts. */
  readonly failures: number
  /** The server process's CPU time per answered request. */
  readonly cpuMsPerRequest: number | null
}

interface AutocannonResult {
  readonly duration: number
  readonly "2xx": number
  readonly non2xx: number
  readonly errors: number
  readonly timeouts: number
  readonly latency: { readonly p50: number; readonly p99: number }
}

export interface LoadRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  /** A POST with this body; a GET without. */
  readonly body?: string
}

export const httpLoad = async (
  request: LoadRequest,
  options: { readonly connections: number; readonly seconds: number; readonly serverPid: number }
): Promise<Load> => {
  const cpuBefore = await cpuMsOf(options.serverPid)
  const headers = Object.entries(request.headers).flatMap(([name, value]) => ["-H", `${name}=${value}`])
  const body = request.body === undefined ? [] : ["-m", "POST", "-b", request.body]
  const { stdout } = await run(
    process.execPath,
    [AUTOCANNON, "-c", String(options.connections), "-d", String(options.seconds), "-j", ...headers, ...body, request.url],
    { maxBuffer: 16 * 1024 * 1024 }
  )
  const cpuAfter = await cpuMsOf(options.serverPid)
  const r = JSON.parse(stdout) as AutocannonResult
  return {
    requestsPerSecond: r["2xx"] / r.duration,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    failures: r.non2xx + r.errors + r.timeouts,
    cpuMsPerRequest: cpuBefore === null || cpuAfter === null || r["2xx"] === 0 ? null : (cpuAfter - cpuBefore) / r["2xx"]
  }
}
