// PostgreSQL goes away under load and comes back. A private cluster (the shared one on 5432 serves
// other suites) is stopped while clients list and create videos: every answer in the outage is a
// quick 503 `unavailable`, the API answers 200s again by itself once the cluster is back, and no
// create is half-applied (a video without its job, or a job without its video).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFile } from "node:child_process"
import { readdirSync } from "node:fs"
import { mkdir, mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import { GenerateCaptions } from "../../src/kernel/job-catalogue.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"
import { type Deployment, freePort, type ServiceProcess, startDeployment } from "../support/service-process.ts"

const run = promisify(execFile)

/** The newest PostgreSQL installed the Debian way; PG_BIN overrides. */
const pgBin = (): string => {
  if (process.env.PG_BIN !== undefined) return process.env.PG_BIN
  const versions = readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(a) - Number(b))
  return `/usr/lib/postgresql/${versions.at(-1)}/bin`
}

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` OS user. */
const asPostgres = (tool: string, args: ReadonlyArray<string>) =>
  process.getuid?.() === 0
    ? run("runuser", ["-u", "postgres", "--", join(pgBin(), tool), ...args])
    : run(join(pgBin(), tool), [...args])

/** A throwaway cluster on a free loopback port, trusting local connections. */
const privateCluster = async () => {
  const dir = await mkdtemp(join(tmpdir(), "reelwright-pg-"))
  const data = join(dir, "data")
  await mkdir(data)
  if (process.getuid?.() === 0) await run("chown", ["-R", "postgres:postgres", dir])
  await asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
  const start = () => asPostgres("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "start"])
  const stop = (mode: "fast" | "immediate") => asPostgres("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"])
  await start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop: () => stop("fast"),
    destroy: async () => {
      await stop("immediate").catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    }
  }
}

/** A request that takes longer than this counts as hanging. */
const HANG_MS = 10_000
/** How long the cluster stays down while the clients keep asking. */
const OUTAGE_MS = 3_000

/** GET /v1/videos or POST /v1/caption-videos (a source no worker fetches: none runs here). */
const request = async (token: string, kind: "list" | "create"): Promise<{ status: number | null; body: any }> => {
  const create = kind === "create"
  try {
    const response = await fetch(`${api.baseUrl}${create ? "/v1/caption-videos" : "/v1/videos"}`, {
      method: create ? "POST" : "GET",
      headers: { authorization: `Bearer ${token}`, ...(create ? { "content-type": "application/json" } : {}) },
      ...(create ? { body: JSON.stringify({ url: "http://127.0.0.1:9/clip.mp4" }) } : {}),
      signal: AbortSignal.timeout(HANG_MS)
    })
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON: keep the text for the failure message
    }
    return { status: response.status, body }
  } catch (error) {
    return { status: null, body: String(error) }
  }
}

interface Outcome {
  readonly kind: "list" | "create"
  /** null: no answer (refused, reset, or no answer within HANG_MS). */
  readonly status: number | null
  readonly body: any
  readonly startedAt: number
  readonly endedAt: number
}

let api: ServiceProcess

describe.skipIf(postgresSkipReason !== undefined)("an API process whose PostgreSQL stops and starts again", () => {
  let cluster: Awaited<ReturnType<typeof privateCluster>>
  let deployment: Deployment

  beforeAll(async () => {
    cluster = await privateCluster()
    // One process and no bucket: its files stay on its own disk.
    deployment = await startDeployment({ databaseUrl: cluster.url })
    api = await deployment.startApi()
  })

  afterAll(async () => {
    await deployment?.close()
    await cluster?.destroy()
  })

  it("answers 503 unavailable during the outage, recovers by itself, and leaves nothing half-applied", async () => {
    const { token, workspaceId } = await deployment.createWorkspace(api)
    const outcomes: Array<Outcome> = []
    let running = true
    const client = async (kind: Outcome["kind"]) => {
      while (running) {
        const startedAt = Date.now()
        const answer = await request(token, kind)
        outcomes.push({ kind, ...answer, startedAt, endedAt: Date.now() })
        await sleep(20)
      }
    }
    const clients = Promise.all([client("list"), client("create"), client("create")])
    const answered = (kind: Outcome["kind"], status: number, after: number) =>
      outcomes.filter((o) => o.kind === kind && o.status === status && o.startedAt >= after).length

    try {
      await deployment.until(() => answered("create", 200, 0) >= 3 && answered("list", 200, 0) >= 3, "answers before the outage")
      const stopping = Date.now()
      await cluster.stop()
      const stopped = Date.now()
      // The clients keep asking while the database is down.
      await sleep(OUTAGE_MS)
      const starting = Date.now()
      await cluster.start()
      const started = Date.now()
      await deployment.until(
        () => answered("list", 200, started) >= 3 && answered("create", 200, started) >= 3,
        "200s again after the restart",
        30_000
      )
      running = false
      await clients

      // Never a 500 nor a hang; every 503 is the documented one.
      expect(outcomes.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([])
      for (const o of outcomes.filter((o) => o.status === 503)) {
        expect(o.body).toMatchObject({ error: { code: "unavailable", message: expect.any(String) } })
      }
      expect(outcomes.filter((o) => o.endedAt < stopping).every((o) => o.status === 200)).toBe(true)
      const duringOutage = outcomes.filter((o) => o.startedAt > stopped && o.endedAt < starting)
      expect(duringOutage.filter((o) => o.kind === "list").length).toBeGreaterThan(0)
      expect(duringOutage.filter((o) => o.kind === "create").length).toBeGreaterThan(0)
      expect(duringOutage.filter((o) => o.status !== 503)).toEqual([])

      // Nothing half-applied: each create that was answered 200 left its video and its job, and no
      // create that failed left one without the other.
      const created = outcomes.filter((o) => o.kind === "create" && o.status === 200).map((o) => o.body.id as string)
      const videos = (await deployment.rows<{ id: string }>("SELECT id FROM videos WHERE workspace_id = $1", [workspaceId]))
        .map((v) => v.id)
      const jobs = (await deployment.rows<{ video_id: string }>(
        "SELECT payload->>'videoId' AS video_id FROM jobs WHERE kind = $1",
        [GenerateCaptions.kind]
      )).map((j) => j.video_id)
      expect(new Set(videos)).toEqual(new Set(jobs))
      expect(videos).toHaveLength(new Set(videos).size)
      expect(created.filter((id) => !videos.includes(id))).toEqual([])
    } finally {
      running = false
      await clients
    }
  })
})
