// The real service as separate machines for the reliability tests: `node --import tsx src/main.ts
// api|worker` child processes, each with a data directory of its own (nothing may work by sharing a
// disk), all on one PostgreSQL database and, when asked, one s3rver bucket. The test reads the shared
// database directly to check what the processes did.
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { type AddressInfo, createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, ManagedRuntime, Redacted, Scope } from "effect"
import { PgClientLive } from "../../adapters/postgres/pg-layer.ts"
import { call } from "./http-client.ts"
import { testDatabase } from "./pg-test-db.ts"
import { s3Server, TEST_BUCKET } from "./s3-server.ts"

const REPO_ROOT = resolve(import.meta.dirname, "../..")
export const ADMIN_TOKEN = "rwadmin_reliability_test_0123456789"
const READY_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 15_000

/** Settings that would make a child pick other adapters or roles than the test means to, or log other lines. */
const INHERITED_CHOICES = [
  "DATABASE_URL", "S3_BUCKET", "BUCKET_NAME", "S3_ENDPOINT", "AWS_ENDPOINT_URL_S3", "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "S3_PREFIX", "ROLE", "NODE_ENV", "DEV_API_TOKEN",
  "JOB_LEASE_SECONDS", "WORKER_CONCURRENCY", "PORT", "BASE_URL", "DATA_DIR", "LOG_FORMAT", "LOG_LEVEL"
]

export type Env = Readonly<Record<string, string>>

export interface ServiceProcess {
  readonly role: "api" | "worker"
  readonly pid: number
  /** Where an API process listens (a worker listens nowhere). */
  readonly baseUrl: string
  /** Everything it wrote to stdout and stderr so far. */
  readonly log: () => string
  readonly isRunning: () => boolean
  /** SIGKILL to its whole process group: the machine dies, its ffmpeg and pocketsphinx with it. */
  readonly kill: () => Promise<void>
  /** SIGTERM, then its exit code (SIGKILL if it has not exited after a while). */
  readonly stop: () => Promise<number | null>
}

export const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer()
    probe.once("error", fail)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => done(port))
    })
  })

/** Children still running, killed when the test process exits however it ends. */
const live = new Set<ChildProcess>()
const killGroup = (child: ChildProcess) => {
  try {
    // detached: the child leads a process group of its own, which takes its tools along.
    process.kill(-child.pid!, "SIGKILL")
  } catch {
    // already gone
  }
}
process.once("exit", () => live.forEach(killGroup))

const spawnRole = async (role: "api" | "worker", env: Env, dataDir: string): Promise<ServiceProcess> => {
  const port = await freePort()
  const baseUrl = `http://127.0.0.1:${port}`
  const inherited: Record<string, string | undefined> = { ...process.env }
  for (const name of INHERITED_CHOICES) delete inherited[name]
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", role], {
    cwd: REPO_ROOT,
    detached: true,
    env: {
      ...inherited,
      PORT: String(port),
      BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      // Global setup's test CA, and the switch that lets webhooks reach the receiver on loopback.
      OUTBOUND_ALLOW_LOOPBACK: "1",
      // A test that stops its processes does not wait for running jobs.
      SHUTDOWN_GRACE_SECONDS: "1",
      // Reliability tests drive one token fast (clients looping through an outage): no per-token limits.
      RATE_LIMIT_PER_SECOND: "0",
      RATE_LIMIT_WRITES_PER_SECOND: "0",
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  live.add(child)
  let output = ""
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8")
  }
  child.stdout!.on("data", collect)
  child.stderr!.on("data", collect)
  let running = true
  const exited = new Promise<number | null>((done) =>
    child.once("exit", (code) => {
      running = false
      live.delete(child)
      done(code)
    })
  )
  const kill = async () => {
    killGroup(child)
    await exited
  }
  const stop = async () => {
    if (!running) return exited
    child.kill("SIGTERM")
    const code = await Promise.race([exited, sleep(STOP_TIMEOUT_MS).then(() => undefined)])
    // Whatever it left behind goes too.
    killGroup(child)
    return code === undefined ? exited.then(() => null) : code
  }
  const service: ServiceProcess = {
    role,
    pid: child.pid!,
    baseUrl,
    log: () => output,
    isRunning: () => running,
    kill,
    stop
  }
  const ready = role === "api"
    ? async () =>
      output.includes("Reelwright is listening") &&
      (await fetch(`${baseUrl}/health`).then((r) => r.ok, () => false))
    : async () => output.includes("Reelwright worker")
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (!(await ready())) {
    if (!running || Date.now() > deadline) {
      await kill()
      throw new Error(`The ${role} process did not become ready. Its output:\n${output.slice(-4000)}`)
    }
    await sleep(100)
  }
  return service
}

export interface Deployment {
  readonly databaseUrl: string
  /** The settings every process gets: the shared database, and the bucket when there is one. */
  readonly env: Env
  /** The s3rver endpoint, when the deployment has a bucket. */
  readonly s3Endpoint: string | undefined
  readonly startApi: (env?: Env) => Promise<ServiceProcess>
  readonly startWorker: (env?: Env) => Promise<ServiceProcess>
  /** Rows from the shared database, read by the test on a connection of its own. */
  readonly rows: <A extends object = Record<string, unknown>>(
    query: string,
    params?: ReadonlyArray<string | number>
  ) => Promise<ReadonlyArray<A>>
  /** A workspace on the pro plan (it may render), made through the admin API. */
  readonly createWorkspace: (api: ServiceProcess, credits?: number) => Promise<{ workspaceId: string; token: string }>
  /** Polls until `condition` holds; on timeout the error carries the processes' logs. */
  readonly until: (condition: () => Promise<boolean> | boolean, what: string, timeoutMs?: number) => Promise<void>
  /** The tail of every process's output, for failure messages. */
  readonly logs: () => string
  /** Kills every process, closes the database connection and the bucket, drops the test database. */
  readonly close: () => Promise<void>
}

/**
 * A database (`databaseUrl`, or a fresh copy of the migrated template, dropped at close) and, with
 * `objectStore`, an s3rver bucket that every process uses for files.
 */
export const startDeployment = async (
  options: { readonly databaseUrl?: string; readonly objectStore?: boolean } = {}
): Promise<Deployment> => {
  const scope = Effect.runSync(Scope.make())
  const databaseUrl = options.databaseUrl ??
    Redacted.value(await Effect.runPromise(Scope.extend(testDatabase(), scope)))
  const s3Endpoint = options.objectStore === true
    ? (await Effect.runPromise(Scope.extend(s3Server, scope))).endpoint
    : undefined
  const env: Env = {
    DATABASE_URL: databaseUrl,
    ...(s3Endpoint === undefined ? {} : {
      S3_BUCKET: TEST_BUCKET,
      S3_ENDPOINT: s3Endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true"
    })
  }
  const database = ManagedRuntime.make(PgClientLive(Redacted.make(databaseUrl), 2))
  const processes: Array<ServiceProcess> = []
  const dataDirs: Array<string> = []

  const start = async (role: "api" | "worker", extra: Env = {}) => {
    const dataDir = await mkdtemp(join(tmpdir(), `reelwright-${role}-`))
    dataDirs.push(dataDir)
    const service = await spawnRole(role, { ...env, ...extra }, dataDir)
    processes.push(service)
    return service
  }

  const logs = () =>
    processes.map((p) => `--- ${p.role} ${p.pid}${p.isRunning() ? "" : " (exited)"} ---\n${p.log().slice(-3000)}`).join("\n")

  return {
    databaseUrl,
    env,
    s3Endpoint,
    startApi: (extra) => start("api", extra),
    startWorker: (extra) => start("worker", extra),
    rows: <A extends object>(query: string, params: ReadonlyArray<string | number> = []) =>
      database.runPromise(
        Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe<A>(query, params))
      ),
    createWorkspace: async (api, credits = 10_000) => {
      const created = await call(api.baseUrl, "/admin/workspaces", {
        token: ADMIN_TOKEN,
        json: { name: "Reliability", ownerEmail: "ops@reliability.test", plan: "pro", credits }
      })
      if (created.status !== 200) throw new Error(`creating a workspace: ${created.status} ${JSON.stringify(created.body)}`)
      return created.body as { workspaceId: string; token: string }
    },
    until: async (condition, what, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${logs()}`)
        await sleep(50)
      }
    },
    logs,
    close: async () => {
      await Promise.all(processes.map((p) => p.stop()))
      await database.dispose()
      await Effect.runPromise(Scope.close(scope, Exit.void))
      await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })))
    }
  }
}
