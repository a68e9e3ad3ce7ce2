// The service as an operator runs it: `node --import tsx src/main.ts [api|worker]` in child processes.
// Roles, SIGTERM, the production refusal, PostgreSQL across restarts and between an API and a worker
// process, and a 503 while the database cannot be reached (a TCP proxy in front of it goes down and up).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { openAsBlob } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Exit, Redacted, Scope } from "effect"
import { makeSpokenClip } from "../support/clips.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { postgresSkipReason, testDatabase } from "../support/pg-test-db.ts"
import { s3Server, TEST_BUCKET } from "../support/s3-server.ts"

const ADMIN_TOKEN = "rwadmin_processes_test_0123456789"

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createTcpServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

const until = async (condition: () => Promise<boolean> | boolean, what: string, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** A GET that reports a refused connection as null instead of throwing. */
const tryGet = async (url: string): Promise<number | null> => {
  try {
    const response = await fetch(url)
    await response.body?.cancel()
    return response.status
  } catch {
    return null
  }
}

interface Service {
  readonly baseUrl: string
  readonly child: ChildProcess
  readonly output: () => { stdout: string; stderr: string }
  readonly exited: Promise<number | null>
  /** SIGTERM, then the exit code. */
  readonly stop: () => Promise<number | null>
}

/** Settings that would make a child pick other adapters than the test means to, or log other lines. */
const INHERITED_CHOICES = [
  "DATABASE_URL", "S3_BUCKET", "BUCKET_NAME", "S3_ENDPOINT", "AWS_ENDPOINT_URL_S3", "ROLE", "NODE_ENV", "DEV_API_TOKEN", "SECRETS_KEY",
  "LOG_LEVEL"
]

const spawnService = async (options: { dataDir: string; args?: Array<string>; env?: Record<string, string> }): Promise<Service> => {
  const port = await freePort()
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of INHERITED_CHOICES) delete env[name]
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", ...(options.args ?? [])], {
    env: {
      ...env,
      PORT: String(port),
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: options.dataDir,
      ADMIN_TOKEN,
      // These tests read the start banner, which is for a person: JSON lines (the default on a pipe) have none.
      LOG_FORMAT: "pretty",
      ...options.env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let stdout = ""
  let stderr = ""
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    child,
    output: () => ({ stdout, stderr }),
    exited,
    stop: () => {
      child.kill("SIGTERM")
      return exited
    }
  }
}

/** Starts a role that listens and waits until /health answers and the banner is out. */
const startListening = async (options: Parameters<typeof spawnService>[0]): Promise<Service> => {
  const service = await spawnService(options)
  let exitCode: number | null | undefined
  void service.exited.then((code) => (exitCode = code))
  await until(async () => {
    if (exitCode !== undefined) throw new Error(`exited with ${exitCode}: ${JSON.stringify(service.output())}`)
    return service.output().stdout.includes("Reelwright is listening") && (await tryGet(`${service.baseUrl}/health`)) === 200
  }, "the service to answer /health")
  return service
}

const startWorker = async (options: Parameters<typeof spawnService>[0]): Promise<Service> => {
  const service = await spawnService({ ...options, args: ["worker"] })
  await until(() => service.output().stdout.includes("Reelwright worker"), "the worker's banner")
  return service
}

const createWorkspace = async (baseUrl: string) => {
  const created = await call(baseUrl, "/admin/workspaces", {
    token: ADMIN_TOKEN,
    json: { name: "Processes", ownerEmail: "ops@processes.test", plan: "pro", credits: 1000 }
  })
  expect(created.status).toBe(200)
  return created.body as { workspaceId: string; token: string }
}

/** A loopback file host that counts requests and answers 404: a video from it fails once a worker fetches. */
const countingHost = async () => {
  let requests = 0
  const server: Server = createServer((_request, response) => {
    requests += 1
    response.writeHead(404).end("gone")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/clip.mp4`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/** A TCP proxy in front of a server: `down` closes every connection and the port, `up` opens it again. */
const tcpProxy = async (target: { host: string; port: number }) => {
  const sockets = new Set<Socket>()
  const server = createTcpServer((client) => {
    const upstream = connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on("error", () => {
        client.destroy()
        upstream.destroy()
      })
      socket.on("close", () => sockets.delete(socket))
    }
    client.pipe(upstream).pipe(client)
  })
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve))
  await listen(0)
  const port = (server.address() as AddressInfo).port
  return {
    port,
    down: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
    up: () => listen(port)
  }
}

let dataDir: string
let host: Awaited<ReturnType<typeof countingHost>>
const running = new Set<Service>()

const track = (service: Service) => {
  running.add(service)
  void service.exited.then(() => running.delete(service))
  return service
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "reelwright-processes-"))
  host = await countingHost()
})

afterAll(async () => {
  await Promise.all([...running].map((s) => s.stop()))
  await host?.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe("process roles on the embedded stores", () => {
  // A process that refuses to start only loads and exits: it runs beside the next test, on the other core.
  it.concurrent("refuses to start in production without a database and a bucket, before listening", async ({ expect }) => {
    const service = await spawnService({ dataDir: join(dataDir, "production"), env: { NODE_ENV: "production" } })
    expect(await service.exited).toBe(1)
    const { stdout, stderr } = service.output()
    expect(stderr).toContain("Reelwright did not start: NODE_ENV=production needs DATABASE_URL (PostgreSQL) and an S3 bucket")
    expect(stdout).not.toContain("listening")
  })

  it.concurrent("ROLE=api answers /health and /ready and runs no jobs", async ({ expect }) => {
    const api = track(await startListening({ dataDir: join(dataDir, "api"), env: { ROLE: "api" } }))
    expect(await tryGet(`${api.baseUrl}/ready`)).toBe(200)
    expect(api.output().stdout).toContain("Jobs:           not run here")
    // The suite pins pocketsphinx (vitest.config.ts): the banner says plainly what that means and the one fix.
    expect(api.output().stdout).toContain("Captions:       pocketsphinx (en-us): poor on real speech")
    expect(api.output().stdout).toContain("For whisper.cpp: npm run models -- pull whisper-base.en-q5_1")
    const { token } = await createWorkspace(api.baseUrl)
    const workspace = await call(api.baseUrl, "/v1/workspace", { token })
    expect(workspace.body.transcription).toEqual({ engine: "pocketsphinx", model: "en-us" })
    const created = await call(api.baseUrl, "/v1/caption-videos", { token, json: { url: host.url } })
    expect(created.status).toBe(200)
    // The worker polls every second; a few polls later the job is still untouched.
    await new Promise((r) => setTimeout(r, 2500))
    const video = await call(api.baseUrl, `/v1/videos/${created.body.id}`, { token })
    expect(video.body).toMatchObject({ status: "processing", step: "queued" })
    expect(host.requests()).toBe(0)
    expect(await api.stop()).toBe(0)
  })

  it("on SIGTERM stops listening at once, lets a running job have its grace, then exits 0", async () => {
    // A source host that sends headers and then nothing: the job hangs in fetching_source.
    let sawRequest!: () => void
    let sawClose!: () => void
    const requested = new Promise<void>((r) => (sawRequest = r))
    const closed = new Promise<void>((r) => (sawClose = r))
    const stalling = createServer((request, response) => {
      sawRequest()
      request.socket.once("close", () => sawClose())
      response.writeHead(200, { "content-type": "video/mp4", "content-length": "10000000" })
      response.write(Buffer.alloc(1024))
    })
    await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve))
    try {
      const service = track(await startListening({ dataDir: join(dataDir, "all"), env: { SHUTDOWN_GRACE_SECONDS: "3" } }))
      const { token } = await createWorkspace(service.baseUrl)
      const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}/clip.mp4`
      expect((await call(service.baseUrl, "/v1/caption-videos", { token, json: { url } })).status).toBe(200)
      await requested

      service.child.kill("SIGTERM")
      let exitedYet = false
      void service.exited.then(() => (exitedYet = true))
      await until(async () => (await tryGet(`${service.baseUrl}/health`)) === null, "the listener to close")
      expect(exitedYet).toBe(false)
      await closed
      expect(await service.exited).toBe(0)
    } finally {
      stalling.closeAllConnections()
      stalling.close()
    }
  })
})

describe.skipIf(postgresSkipReason !== undefined)("process roles on PostgreSQL", () => {
  // The database (a migrated copy, dropped at the end) and the s3rver live as long as this scope.
  const scope = Effect.runSync(Scope.make())
  let databaseUrl: URL
  let s3Endpoint: string

  beforeAll(async () => {
    databaseUrl = new URL(Redacted.value(await Effect.runPromise(Scope.extend(testDatabase(), scope))))
    s3Endpoint = (await Effect.runPromise(Scope.extend(s3Server, scope))).endpoint
  })

  afterAll(async () => {
    await Promise.all([...running].map((s) => s.stop()))
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  // Runs beside the next test: the refused process never reaches the database.
  it.concurrent("refuses to start in production without SECRETS_KEY, even with a database and a bucket", async ({ expect }) => {
    const service = await spawnService({
      dataDir: join(dataDir, "production-no-secrets-key"),
      env: {
        NODE_ENV: "production",
        DATABASE_URL: databaseUrl.toString(),
        S3_BUCKET: TEST_BUCKET,
        S3_ENDPOINT: s3Endpoint,
        S3_ACCESS_KEY_ID: "S3RVER",
        S3_SECRET_ACCESS_KEY: "S3RVER",
        S3_FORCE_PATH_STYLE: "true"
      }
    })
    expect(await service.exited).toBe(1)
    expect(service.output().stderr).toContain("Reelwright did not start: NODE_ENV=production needs SECRETS_KEY")
  })

  it.concurrent("in production mode keeps records across restarts, finds the dev workspace again, and a worker process on another disk runs the jobs", async ({ expect }) => {
    // What separate Machines share: the database and the bucket (s3rver's one account, path-style URLs).
    const env = {
      NODE_ENV: "production",
      SECRETS_KEY: "c2VjcmV0cy1rZXktZm9yLXRoZS1wcm9jZXNzZXMtdGU=",
      DATABASE_URL: databaseUrl.toString(),
      S3_BUCKET: TEST_BUCKET,
      S3_ENDPOINT: s3Endpoint,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      DEV_API_TOKEN: "rw_dev_processes_test_token"
    }
    // The clip is made while the first API process starts.
    const [clip, first] = await Promise.all([
      mkdtemp(join(dataDir, "clip-")).then((dir) =>
        makeSpokenClip({ text: "The river runs past the old mill.", width: 360, height: 640, fps: 30, dir })
      ),
      startListening({ dataDir: join(dataDir, "api-1"), args: ["api"], env }).then(track)
    ])
    // A token from the environment is named, never printed.
    const devWorkspace = /API token:\s+from DEV_API_TOKEN\s+\(workspace (\S+),/.exec(first.output().stdout)?.[1]
    expect(devWorkspace).toBeDefined()
    expect(first.output().stdout).not.toContain(env.DEV_API_TOKEN)
    expect(first.output().stdout).toContain("PostgreSQL")
    expect(first.output().stdout).toContain(`S3 bucket ${TEST_BUCKET}`)
    expect(first.output().stdout).not.toContain("do NOT survive")
    const { token } = await createWorkspace(first.baseUrl)
    const form = new FormData()
    form.append("file", await openAsBlob(clip.path, { type: "video/mp4" }), "clip.mp4")
    const created = await call(first.baseUrl, "/v1/caption-videos", { token, form })
    expect(created.status).toBe(200)
    expect(await first.stop()).toBe(0)

    const second = track(await startListening({ dataDir: join(dataDir, "api-2"), args: ["api"], env }))
    expect(second.output().stdout).toContain(`(workspace ${devWorkspace}, created at an earlier start)`)
    const again = await call(second.baseUrl, `/v1/videos/${created.body.id}`, { token })
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ id: created.body.id, status: "processing", step: "queued" })
    const dev = await call(second.baseUrl, "/v1/videos", { token: env.DEV_API_TOKEN })
    expect(dev.status).toBe(200)

    const worker = track(await startWorker({ dataDir: join(dataDir, "worker"), env }))
    const done = await waitForVideo(second.baseUrl, token, created.body.id)
    expect(done).toMatchObject({ status: "completed" })
    expect(await worker.stop()).toBe(0)
    expect(await second.stop()).toBe(0)
  })

  it("answers 503 while the database is unreachable and recovers by itself, the worker too", async () => {
    const proxy = await tcpProxy({ host: databaseUrl.hostname, port: Number(databaseUrl.port || 5432) })
    const viaProxy = new URL(databaseUrl)
    viaProxy.hostname = "127.0.0.1"
    viaProxy.port = String(proxy.port)
    const service = track(await startListening({ dataDir: join(dataDir, "outage"), env: { DATABASE_URL: viaProxy.toString() } }))
    const { token } = await createWorkspace(service.baseUrl)
    expect((await call(service.baseUrl, "/v1/videos", { token })).status).toBe(200)

    await proxy.down()
    const listed = await call(service.baseUrl, "/v1/videos", { token })
    expect(listed.status).toBe(503)
    expect(listed.headers.get("retry-after")).toBe("5")
    expect(listed.body.error).toMatchObject({ code: "unavailable", message: "The database is unreachable; retry shortly." })
    const admin = await call(service.baseUrl, "/admin/workspaces", {
      token: ADMIN_TOKEN,
      json: { name: "During the outage", ownerEmail: "ops@processes.test" }
    })
    expect(admin.status).toBe(503)
    expect(await tryGet(`${service.baseUrl}/ready`)).toBe(503)
    expect(await tryGet(`${service.baseUrl}/health`)).toBe(200)
    // Long enough for the worker's claim loop to hit the outage and keep trying.
    await until(() => service.output().stdout.includes("claiming failed; trying again shortly"), "the worker to notice", 30_000)

    await proxy.up()
    await until(async () => (await call(service.baseUrl, "/v1/videos", { token })).status === 200, "the API to recover")
    expect(await tryGet(`${service.baseUrl}/ready`)).toBe(200)
    const before = host.requests()
    const created = await call(service.baseUrl, "/v1/caption-videos", { token, json: { url: host.url } })
    expect(created.status).toBe(200)
    const failed = await waitForVideo(service.baseUrl, token, created.body.id)
    expect(failed).toMatchObject({ status: "failed", step: "fetching_source" })
    expect(host.requests()).toBeGreaterThan(before)
    expect(await service.stop()).toBe(0)
  })
})
