// The real service as a child process for the benchmarks: node itself runs src/main.ts (no npm/tsx
// wrapper in between), so the child's pid is the server whose memory and log the benchmarks read.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { profileArgs } from "./bench-child.ts"

const REPO_ROOT = resolve(import.meta.dirname, "..")
const READY_TIMEOUT_MS = 60_000

export interface ServiceProcess {
  readonly pid: number
  readonly baseUrl: string
  readonly token: string
  readonly dataDir: string
  /** Everything the server wrote to stdout and stderr so far. */
  readonly log: () => string
  /** Kills the server and removes its data directory. */
  readonly stop: () => Promise<void>
}

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer()
    probe.once("error", fail)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => done(port))
    })
  })

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((done) => child.once("exit", () => done()))

export const startService = async (): Promise<ServiceProcess> => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelwright-bench-"))
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const token = `rw_bench_${Math.random().toString(36).slice(2)}`
  const child = spawn(process.execPath, ["--import", "tsx", ...profileArgs, "src/main.ts"], {
    cwd: REPO_ROOT,
    // Benchmarks drive one token far past the per-token budgets: limits are off unless the caller sets them.
    env: {
      RATE_LIMIT_PER_SECOND: "0",
      RATE_LIMIT_WRITES_PER_SECOND: "0",
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      BASE_URL: baseUrl,
      DEV_API_TOKEN: token,
      ADMIN_TOKEN: `${token}_admin`,
      // stepTimings (caption-render.ts) reads the JSON lines.
      LOG_FORMAT: "json"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8")
  }
  child.stdout?.on("data", collect)
  child.stderr?.on("data", collect)
  const stop = async () => {
    child.kill("SIGTERM")
    const gone = await Promise.race([exited(child).then(() => true), sleep(5_000).then(() => false)])
    if (!gone) {
      child.kill("SIGKILL")
      await exited(child)
    }
    await rm(dataDir, { recursive: true, force: true })
  }
  const deadline = performance.now() + READY_TIMEOUT_MS
  while (performance.now() < deadline) {
    if (child.exitCode !== null) break
    const healthy = await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false)
    if (healthy) return { pid: child.pid!, baseUrl, token, dataDir, log: () => output, stop }
    await sleep(200)
  }
  await stop()
  throw new Error(`The service did not answer /health within ${READY_TIMEOUT_MS / 1000} s. Its output:\n${output.slice(-4000)}`)
}
