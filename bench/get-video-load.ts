// How the API holds up under polling: GET /v1/videos/:id on PostgreSQL with 50 connections for 10 s,
// against a raw node:http server doing the same work.
//   ours: the service as a child process (ROLE api, DATABASE_URL on a scratch database)
//   raw:  node:http + node-postgres (a pool of 10, as the service's) in a child process: the same bearer
//         check and queries (token by SHA-256 joined to its workspace, the video by id and workspace) and the
//         same body
// The load comes from autocannon in a third process. The video is a processing one (what clients poll).
// Targets: req/s ours/raw >= 0.6, our p99 < 20 ms.
import { createHash, randomUUID } from "node:crypto"
import { createServer, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { loadavg } from "node:os"
import { setTimeout as sleep } from "node:timers/promises"
import { forkBenchChild, tellParent } from "./bench-child.ts"
import { httpLoad, type Load } from "./http-load.ts"
import { type Figure, isEntryPoint, report } from "./figures.ts"
import { connectClient, pg } from "./node-postgres.ts"
import { createScratchDatabase } from "./scratch-database.ts"
import { type ServiceProcess, startService } from "./service-process.ts"

const BENCH = "get-video-load"
export const CONNECTIONS = 50
export const SECONDS = 10
export const WARMUP_SECONDS = 2
const RAW_POOL = 10
const RAW_SERVER = "raw-server"
const WORKSPACE_TIMEOUT_MS = 10_000

export const load = (url: string, token: string, seconds: number, serverPid: number): Promise<Load> =>
  httpLoad({ url, headers: { authorization: `Bearer ${token}` } }, { connections: CONNECTIONS, seconds, serverPid })

const sha256Hex = (value: string): string => createHash("sha256").update(value).digest("hex")

/** startService passes its own environment on to the server: the database and the role are set around it. */
export const startServiceWith = async (vars: Readonly<Record<string, string>>): Promise<ServiceProcess> => {
  const saved = Object.keys(vars).map((key) => [key, process.env[key]] as const)
  Object.assign(process.env, vars)
  try {
    return await startService()
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
}

/** A video of the development workspace, processing and probed: what a client polls while it waits. */
export const insertVideo = async (databaseUrl: string, token: string): Promise<string> => {
  const client = await connectClient(databaseUrl)
  try {
    // The service answers /health as soon as it listens, and creates the workspace just after.
    const started = performance.now()
    let workspaceId: string | undefined
    for (;;) {
      const { rows } = await client.query<{ workspace_id: string }>("SELECT workspace_id FROM api_tokens WHERE hash = $1", [sha256Hex(token)])
      workspaceId = rows[0]?.workspace_id
      if (workspaceId !== undefined) break
      if (performance.now() - started > WORKSPACE_TIMEOUT_MS) throw new Error("the service did not create the development workspace")
      await sleep(100)
    }
    const id = randomUUID()
    await client.query(
      `INSERT INTO videos (id, workspace_id, kind, status, step, render, render_options, template_id, created_at, updated_at,
        editor_token, webhook_url, work, generated, source_url, duration_seconds, width, height)
      VALUES ($1, $2, 'caption', 'processing', 'transcribing', false, NULL, 1, now(), now(), $3, NULL, 0, false,
        'https://example.com/clip.mp4', 61.25, 1080, 1920)`,
      [id, workspaceId, randomUUID().replaceAll("-", "")]
    )
    return id
  } finally {
    await client.end()
  }
}

interface VideoRow {
  readonly id: string
  readonly kind: string
  readonly status: string
  readonly step: string
  readonly render: boolean
  readonly template_id: number
  readonly created_at: Date
  readonly editor_token: string
  readonly duration_seconds: number | null
  readonly width: number | null
  readonly height: number | null
  readonly error: string | null
  readonly export: unknown
}

/** The public video object, written out by hand in the order the service encodes it. */
const videoBody = (v: VideoRow, baseUrl: string): string =>
  JSON.stringify({
    id: v.id,
    kind: v.kind,
    status: v.status,
    step: v.step,
    render: v.render,
    createdAt: v.created_at.toISOString(),
    editorUrl: `${baseUrl}/editor/${v.editor_token}`,
    templateId: v.template_id,
    ...(v.duration_seconds === null ? {} : { duration: v.duration_seconds }),
    ...(v.width === null ? {} : { width: v.width }),
    ...(v.height === null ? {} : { height: v.height }),
    ...(v.error === null ? {} : { error: v.error }),
    ...(v.export === null ? {} : { export: v.export })
  })

/** The baseline server, in its own process: DATABASE_URL and BASE_URL as the service has them. */
const serveRaw = async (): Promise<void> => {
  const pool = new pg.Pool({ connectionString: process.env["DATABASE_URL"] ?? "", max: RAW_POOL })
  const baseUrl = process.env["BASE_URL"] ?? ""
  const answer = async (request: IncomingMessage): Promise<{ status: number; body: string }> => {
    const id = /^\/v1\/videos\/([^/?]+)$/.exec(request.url ?? "")?.[1]
    if (request.method !== "GET" || id === undefined) return { status: 404, body: "{}" }
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1]
    if (token === undefined) return { status: 401, body: "{}" }
    const tokens = await pool.query<{ revoked_at: Date | null; workspace_id: string }>(
      `SELECT t.*, w.name AS workspace_name, w.owner_email AS workspace_owner_email, w.plan AS workspace_plan,
          w.byok AS workspace_byok, w.last_template_id AS workspace_last_template_id,
          w.created_at AS workspace_created_at
        FROM api_tokens t JOIN workspaces w ON w.id = t.workspace_id WHERE t.hash = $1`,
      [sha256Hex(token)]
    )
    const found = tokens.rows[0]
    if (found === undefined || found.revoked_at !== null) return { status: 401, body: "{}" }
    const videos = await pool.query<VideoRow>("SELECT * FROM videos WHERE id = $1 AND workspace_id = $2", [id, found.workspace_id])
    const video = videos.rows[0]
    return video === undefined ? { status: 404, body: "{}" } : { status: 200, body: videoBody(video, baseUrl) }
  }
  const server = createServer((request, response) => {
    answer(request).then(
      ({ body, status }) => {
        response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        response.end(body)
      },
      (error: unknown) => {
        response.writeHead(500)
        response.end(String(error))
      }
    )
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  process.once("SIGTERM", () => {
    server.closeAllConnections()
    server.close(() => void pool.end().then(() => process.exit(0)))
  })
  await tellParent({ port: (server.address() as AddressInfo).port })
}

const bodyOf = async (url: string, token: string): Promise<string> => {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  const body = await response.text()
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${body.slice(0, 300)}`)
  return body
}

const figuresOf = (name: string, l: Load): ReadonlyArray<Figure> => [
  { bench: BENCH, name: `${name}: throughput`, value: l.requestsPerSecond, unit: "req/s", note: l.failures > 0 ? `${l.failures} failed requests` : "" },
  { bench: BENCH, name: `${name}: p50 latency`, value: l.p50Ms, unit: "ms" },
  { bench: BENCH, name: `${name}: p99 latency`, value: l.p99Ms, unit: "ms", ...(name === "ours" ? { target: { atMost: 20 } } : {}) },
  { bench: BENCH, name: `${name}: server CPU per request`, value: l.cpuMsPerRequest, unit: "ms", note: l.cpuMsPerRequest === null ? "no /proc here" : "" }
]

export const getVideoLoad = async (): Promise<ReadonlyArray<Figure>> => {
  const database = await createScratchDatabase(BENCH)
  try {
    const service = await startServiceWith({ DATABASE_URL: database.url, ROLE: "api" })
    try {
      const raw = forkBenchChild<{ port: number }>(import.meta.url, [RAW_SERVER], { DATABASE_URL: database.url, BASE_URL: service.baseUrl })
      try {
        const videoId = await insertVideo(database.url, service.token)
        const oursUrl = `${service.baseUrl}/v1/videos/${videoId}`
        const rawUrl = `http://127.0.0.1:${(await raw.message).port}/v1/videos/${videoId}`
        const sameBody = (await bodyOf(oursUrl, service.token)) === (await bodyOf(rawUrl, service.token))
        console.log(`${BENCH}: ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up; raw body identical: ${sameBody}`)
        await load(rawUrl, service.token, WARMUP_SECONDS, raw.pid)
        const rawLoad = await load(rawUrl, service.token, SECONDS, raw.pid)
        console.log(`${BENCH}: raw  ${rawLoad.requestsPerSecond.toFixed(0)} req/s, p50 ${rawLoad.p50Ms} ms, p99 ${rawLoad.p99Ms} ms`)
        await load(oursUrl, service.token, WARMUP_SECONDS, service.pid)
        const ours = await load(oursUrl, service.token, SECONDS, service.pid)
        console.log(`${BENCH}: ours ${ours.requestsPerSecond.toFixed(0)} req/s, p50 ${ours.p50Ms} ms, p99 ${ours.p99Ms} ms`)
        const ratio = ours.requestsPerSecond / rawLoad.requestsPerSecond
        return [
          ...figuresOf("ours", ours),
          ...figuresOf("raw node:http + pg", rawLoad),
          {
            bench: BENCH,
            name: "req/s ours/raw",
            value: ratio,
            unit: "x",
            note: `target >= 0.6: ${ratio >= 0.6 ? "met" : "NOT met"}; raw body ${sameBody ? "identical" : "DIFFERS"}; ` +
              `load average ${loadavg()[0]!.toFixed(2)}`
          }
        ]
      } finally {
        await raw.stop()
      }
    } finally {
      await service.stop()
    }
  } finally {
    await database.drop()
  }
}

if (isEntryPoint(import.meta.url)) {
  if (process.argv[2] === RAW_SERVER) await serveRaw()
  else await report(await getVideoLoad())
}
