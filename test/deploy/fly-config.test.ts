// fly.toml and the Dockerfile point at code that exists: every process command and the release
// command run a real file with a known role and match an npm script, the health checks' paths are
// served, and Fly waits longer than the shutdown grace before killing a Machine.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { existsSync, readFileSync } from "node:fs"
import { parse } from "smol-toml"
import { DEFAULT_SHUTDOWN_GRACE_SECONDS, ROLES } from "../../src/roles.ts"
import { startApp, type TestApp } from "../support/app.ts"

interface Check {
  readonly path?: string
  readonly port?: number
  readonly type?: string
  readonly processes?: ReadonlyArray<string>
}

interface FlyConfig {
  readonly kill_signal: string
  readonly kill_timeout: string
  readonly deploy: { readonly release_command: string }
  readonly env: Readonly<Record<string, string>>
  readonly processes: Readonly<Record<string, string>>
  readonly http_service: {
    readonly internal_port: number
    readonly processes: ReadonlyArray<string>
    readonly checks: ReadonlyArray<Check>
  }
  readonly checks?: Readonly<Record<string, Check>>
  readonly vm: ReadonlyArray<{ readonly processes?: ReadonlyArray<string> }>
  readonly metrics?: { readonly port: number; readonly path: string }
}

const fly = parse(readFileSync("fly.toml", "utf8")) as unknown as FlyConfig
const scripts = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts

/** `node --import tsx FILE ARGS...`: the file it runs and its arguments. */
const nodeCommand = (command: string) => {
  const [node, flag, loader, file, ...args] = command.split(/\s+/)
  expect([node, flag, loader]).toEqual(["node", "--import", "tsx"])
  expect(file !== undefined && existsSync(file)).toBe(true)
  return { file: file!, args }
}

/** The npm script that runs the same file with the same arguments. */
const scriptFor = (command: string) => {
  const { file, args } = nodeCommand(command)
  return Object.entries(scripts).find(([, script]) => script === ["tsx", file, ...args].join(" "))?.[0]
}

const seconds = (duration: string): number => {
  const match = /^(\d+)(s|m)?$/.exec(duration)
  expect(match).not.toBeNull()
  return Number(match![1]) * (match![2] === "m" ? 60 : 1)
}

describe("fly.toml", () => {
  let app: TestApp

  beforeAll(async () => {
    app = await startApp({ worker: false })
  })

  afterAll(async () => {
    await app?.close()
  })

  it("runs the API and the worker as process groups of one image, each an npm script", () => {
    expect(Object.keys(fly.processes).sort()).toEqual(["app", "worker"])
    expect(nodeCommand(fly.processes.app!).args).toEqual(["api"])
    expect(nodeCommand(fly.processes.worker!).args).toEqual(["worker"])
    for (const command of Object.values(fly.processes)) {
      for (const arg of nodeCommand(command).args) expect(ROLES).toContain(arg)
    }
    expect(scriptFor(fly.processes.app!)).toBe("start:api")
    expect(scriptFor(fly.processes.worker!)).toBe("start:worker")
    for (const vm of fly.vm) {
      for (const group of vm.processes ?? []) expect(Object.keys(fly.processes)).toContain(group)
    }
  })

  it("serves HTTP from the app group only, on PORT", () => {
    expect(fly.http_service.processes).toEqual(["app"])
    expect(String(fly.http_service.internal_port)).toBe(fly.env.PORT)
  })

  it("migrates in the release command, through the migrate script", () => {
    expect(scriptFor(fly.deploy.release_command)).toBe("migrate")
  })

  it("sends SIGTERM and waits longer than the shutdown grace before killing", () => {
    expect(fly.kill_signal).toBe("SIGTERM")
    const grace = Number(fly.env.SHUTDOWN_GRACE_SECONDS ?? DEFAULT_SHUTDOWN_GRACE_SECONDS)
    expect(seconds(fly.kill_timeout)).toBeGreaterThan(grace)
    expect(seconds(fly.kill_timeout)).toBeGreaterThan(DEFAULT_SHUTDOWN_GRACE_SECONDS)
  })

  it("has Fly scrape the metrics port every Machine serves, off the public service", () => {
    expect(fly.metrics).toEqual({ port: Number(fly.env["METRICS_PORT"]), path: "/metrics" })
    expect(fly.metrics!.port).not.toBe(fly.http_service.internal_port)
    // Fly's scraper reaches Machines over the private IPv6 network.
    expect(fly.env["METRICS_HOST"]).toBe("::")
  })

  it("checks paths the service answers with 200", async () => {
    const checks = [...fly.http_service.checks, ...Object.values(fly.checks ?? {})]
    expect(checks.map((c) => c.path)).toContain("/health")
    for (const check of Object.values(fly.checks ?? {})) {
      expect(check.type).toBe("http")
      expect(String(check.port)).toBe(fly.env.PORT)
      for (const group of check.processes ?? []) expect(fly.http_service.processes).toContain(group)
    }
    for (const check of checks) {
      const response = await fetch(`${app.baseUrl}${check.path}`)
      expect(response.status, check.path).toBe(200)
    }
  })
})

describe("Dockerfile", () => {
  it("runs node with the service's entry point as PID 1 (exec form)", () => {
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync("Dockerfile", "utf8"))
    expect(cmd).not.toBeNull()
    const command = (JSON.parse(cmd![1]!) as Array<string>).join(" ")
    expect(nodeCommand(command).file).toBe("src/main.ts")
    expect(scriptFor(command)).toBe("start")
  })
})
