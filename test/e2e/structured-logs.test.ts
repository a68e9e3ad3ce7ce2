// What an operator's log collector receives from an API and a worker process started with
// LOG_FORMAT=json: one JSON object per line, the request id an answer states on its request's line, job
// lines with their ids and durations in milliseconds, a warning for a video that failed, the start and
// the shutdown, and none of the secrets that passed through the processes.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { randomUUID } from "node:crypto"
import { openAsBlob } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { useDeployment } from "../support/deployment-fixture.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"
import { ADMIN_TOKEN, type ServiceProcess } from "../support/service-process.ts"

type Line = Record<string, unknown>

const JSON_LOGS = { LOG_FORMAT: "json" }
const PASSWORD = "correct-horse-battery-9137"
const WEBHOOK_PATH = "/hooks/s3cr3t-path-4471"
const WEBHOOK_QUERY_SECRET = "hook-token-8812"
const SOURCE_SIGNATURE = "sig-5521-source"

const linesOf = (service: ServiceProcess): Array<Line> =>
  service.log().split("\n").filter((line) => line.length > 0).map((line) => {
    try {
      return JSON.parse(line) as Line
    } catch {
      throw new Error(`a ${service.role} log line is not JSON: ${line}`)
    }
  })

/** A loopback host whose every file is gone: a video from it fails once a worker fetches it. */
const goneHost = async () => {
  const server: Server = createServer((_request, response) => response.writeHead(404).end("gone"))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

describe.skipIf(postgresSkipReason !== undefined)("structured logs of the api and worker processes", () => {
  const env = useDeployment("The lighthouse keeper counted every ship that passed the point.")
  let host: Awaited<ReturnType<typeof goneHost>>
  let api: ServiceProcess
  let worker: ServiceProcess
  let workspaceId: string
  let token: string
  let webhookSecret: string

  beforeAll(async () => {
    host = await goneHost()
    // Side by side: each start is mostly a node process loading its modules.
    ;[api, worker] = await Promise.all([env.deployment.startApi(JSON_LOGS), env.deployment.startWorker(JSON_LOGS)])
    ;({ workspaceId, token } = await env.deployment.createWorkspace(api))
    const signing = await call(api.baseUrl, `/admin/workspaces/${workspaceId}/webhook-secret`, { token: ADMIN_TOKEN, json: {} })
    expect(signing.status).toBe(200)
    webhookSecret = signing.body.secret
  })
  afterAll(() => host?.close())

  it("logs requests, jobs, a failed video, the start and the shutdown as JSON lines without secrets", async () => {
    const user = await call(api.baseUrl, "/admin/users", { token: ADMIN_TOKEN, json: { email: "ops@logs.test", password: PASSWORD } })
    expect(user.status).toBe(200)
    const signIn = await fetch(`${api.baseUrl}/oauth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "ops@logs.test", password: PASSWORD, csrf: "stale" }),
      redirect: "manual"
    })
    await signIn.body?.cancel()

    const form = new FormData()
    form.append("file", await openAsBlob(env.clip.path, { type: "video/mp4" }), "clip.mp4")
    form.append("webhookUrl", `${env.receiver.url}${WEBHOOK_PATH}?token=${WEBHOOK_QUERY_SECRET}`)
    const created = await call(api.baseUrl, "/v1/caption-videos", { token, form })
    expect(created.status).toBe(200)
    const videoId: string = created.body.id
    const failing = await call(api.baseUrl, "/v1/caption-videos", {
      token,
      json: { url: `${host.url}/private/clip.mp4?X-Amz-Signature=${SOURCE_SIGNATURE}` }
    })
    expect(failing.status).toBe(200)
    const refused = await call(api.baseUrl, "/v1/videos", { token: "rw_not_a_token_at_all" })
    expect(refused.status).toBe(401)
    const getVideoByTool = (id: string) =>
      fetch(`${api.baseUrl}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_video", arguments: { id } } })
      })
    const polledByTool = await getVideoByTool(videoId)
    await polledByTool.body?.cancel()
    const missedByTool = await getVideoByTool(randomUUID())
    await missedByTool.body?.cancel()

    expect(await waitForVideo(api.baseUrl, token, videoId)).toMatchObject({ status: "completed" })
    expect(await waitForVideo(api.baseUrl, token, failing.body.id)).toMatchObject({ status: "failed", error: expect.stringContaining("404") })
    await env.deployment.until(() => env.receiver.requests.some((r) => r.headers["x-service-video-id"] === videoId), "the webhook")
    expect(await api.stop()).toBe(0)
    expect(await worker.stop()).toBe(0)

    const apiLines = linesOf(api)
    const workerLines = linesOf(worker)
    for (const line of [...apiLines, ...workerLines]) {
      expect(line).toMatchObject({ time: expect.any(String), level: expect.any(String), message: expect.any(String) })
      expect(new Date(line["time"] as string).toISOString()).toBe(line["time"])
    }

    // The request's line carries the id its answer stated, and the workspace it acted for.
    const createdLine = apiLines.find((l) => l["message"] === "request" && l["requestId"] === created.headers.get("x-request-id"))
    expect(createdLine).toMatchObject({
      level: "info",
      method: "POST",
      route: "/v1/caption-videos",
      status: 200,
      workspaceId,
      durationMs: expect.any(Number)
    })
    const refusedLine = apiLines.find((l) => l["message"] === "request" && l["requestId"] === refused.body.error.requestId)
    expect(refusedLine).toMatchObject({ method: "GET", route: "/v1/videos", status: 401 })
    expect(apiLines.find((l) => l["route"] === "/oauth/sign-in")).toMatchObject({ method: "POST", status: expect.any(Number) })
    // An assistant's poll through MCP writes no line at info, as a polled GET: the exchange's access line
    // and the tool call's line are at debug. A tool call that fails writes its line, under the exchange's id.
    const answerLines = (answer: Response) => apiLines.filter((l) => l["requestId"] === answer.headers.get("x-request-id"))
    expect([polledByTool.status, missedByTool.status]).toEqual([200, 200])
    expect(answerLines(polledByTool)).toEqual([])
    expect(answerLines(missedByTool).map((l) => [l["level"], l["message"]])).toEqual([["info", "mcp tool call"]])
    expect(answerLines(missedByTool)[0]).toMatchObject({ tool: "get_video", outcome: "error", workspaceId, durationMs: expect.any(Number) })

    const jobDone = workerLines.find((l) => l["message"] === "job Done" && l["videoId"] === videoId)
    expect(jobDone).toMatchObject({
      level: "info",
      kind: "caption-video.generate",
      jobId: expect.any(String),
      attempt: 1,
      workspaceId,
      durationMs: expect.any(Number)
    })
    expect(workerLines.find((l) => l["message"] === "step transcribing done" && l["videoId"] === videoId))
      .toMatchObject({ durationMs: expect.any(Number), jobId: jobDone!["jobId"] })

    // The failure the user sees, with the source URL's origin only: its path and query may hold a secret.
    const failed = workerLines.find((l) => l["message"] === "video failed")
    expect(failed).toMatchObject({
      level: "warn",
      videoId: failing.body.id,
      kind: "caption-video.generate",
      jobId: expect.any(String),
      attempt: 1,
      error: expect.stringContaining("404")
    })
    expect(failed!["error"]).toContain(host.url)

    expect(apiLines.find((l) => l["message"] === `Reelwright is listening on ${api.baseUrl}`))
      .toMatchObject({ role: "api", port: Number(new URL(api.baseUrl).port), version: expect.any(String), node: process.version })
    expect(workerLines.find((l) => l["message"] === "Reelwright worker started")).toMatchObject({ role: "worker", version: expect.any(String) })
    expect(apiLines.find((l) => l["message"] === "shutting down")).toMatchObject({ level: "info", role: "api", signal: "SIGTERM" })
    expect(workerLines.find((l) => l["message"] === "shutting down")).toMatchObject({ role: "worker", signal: "SIGTERM" })
    expect(workerLines.find((l) => l["message"] === "worker stopped")).toMatchObject({ jobsHandedBack: 0 })

    const everything = `${api.log()}\n${worker.log()}`
    expect(everything).not.toContain("\"_id\":\"Duration\"")
    for (const secret of [token, ADMIN_TOKEN, webhookSecret, PASSWORD, WEBHOOK_PATH, WEBHOOK_QUERY_SECRET, SOURCE_SIGNATURE]) {
      expect(everything).not.toContain(secret)
    }
  })
})
