// What an operator's Prometheus and OpenTelemetry collector receive from an API and a worker process on
// Postgres, after one caption video with a render and a webhook: /metrics (METRICS_PORT) on each, in the
// text format a Prometheus parser reads, with the counts of what happened; and, through an OTLP/HTTP
// collector stand-in on loopback, one trace from the POST through the worker's jobs to the webhook
// delivery, every parent link intact across the queue.
import { HANDED_ON } from "../../adapters/http/read-lane.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openAsBlob } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import parsePrometheusTextFormat from "parse-prometheus-text-format"
import { useDeployment } from "../support/deployment-fixture.ts"
import { call, waitForVideo } from "../support/http-client.ts"
import { postgresSkipReason } from "../support/pg-test-db.ts"
import { freePort, type ServiceProcess } from "../support/service-process.ts"

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

interface OtlpBody {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }> }
    readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<OtlpSpan> }>
  }>
}

/** An OTLP/HTTP collector that keeps every span it is sent, with the instance that sent it. */
const startCollector = async () => {
  const spans: Array<OtlpSpan & { readonly instance: string }> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      if (request.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpBody
        for (const resource of body.resourceSpans) {
          const instance = resource.resource.attributes.find((a) => a.key === "service.instance.id")?.value.stringValue ?? ""
          for (const scope of resource.scopeSpans) for (const span of scope.spans) spans.push({ ...span, instance })
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

interface Sample {
  readonly labels?: Record<string, string>
  readonly value?: string
}
interface Family {
  readonly name: string
  readonly type: string
  readonly metrics: ReadonlyArray<Sample>
}

interface Scrape {
  /** Each family's type, as the parser read it. */
  readonly types: Map<string, string>
  /**
   * Every series by its own name (`…_count`, `…_sum`, `…_bucket` for histograms). The parser keeps a
   * histogram's labels only when it has none, so the series are read from the text with the histograms'
   * TYPE lines left out: each line then parses as a sample of its own with its labels.
   */
  readonly series: Map<string, Family>
}

const scrape = async (port: number): Promise<Scrape> => {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`)
  expect(response.status).toBe(200)
  const text = await response.text()
  const families = parsePrometheusTextFormat(text) as ReadonlyArray<Family>
  const untyped = parsePrometheusTextFormat(text.split("\n").filter((line) => !/^# TYPE \S+ histogram$/.test(line)).join("\n")) as ReadonlyArray<Family>
  // A histogram's series alternate (count, sum, buckets of one label set, then the next): one family each time.
  const series = new Map<string, Family>()
  for (const family of untyped) {
    const known = series.get(family.name)
    series.set(family.name, known === undefined ? family : { ...known, metrics: [...known.metrics, ...family.metrics] })
  }
  return { types: new Map(families.map((f) => [f.name, f.type])), series }
}

/** The samples of a family whose labels include `labels`. */
const samples = (scraped: Scrape, name: string, labels: Record<string, string> = {}): ReadonlyArray<Sample> => {
  const series = scraped.types.get(name) === "HISTOGRAM" ? `${name}_count` : name
  return (scraped.series.get(series)?.metrics ?? []).filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value))
}

const total = (list: ReadonlyArray<Sample>): number => list.reduce((sum, sample) => sum + Number(sample.value ?? 0), 0)

const attribute = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

describe.skipIf(postgresSkipReason !== undefined)("metrics and traces of the api and worker processes", () => {
  const env = useDeployment("The orchard keeper weighed every basket of apples twice.")
  let collector: Awaited<ReturnType<typeof startCollector>>
  let api: ServiceProcess
  let worker: ServiceProcess
  let apiMetrics: number
  let workerMetrics: number
  let token: string

  beforeAll(async () => {
    collector = await startCollector()
    apiMetrics = await freePort()
    workerMetrics = await freePort()
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: "200" }
    // Side by side: each start is mostly a node process loading its modules.
    ;[api, worker] = await Promise.all([
      env.deployment.startApi({ ...tracing, METRICS_PORT: String(apiMetrics) }),
      env.deployment.startWorker({ ...tracing, METRICS_PORT: String(workerMetrics) })
    ])
    ;({ token } = await env.deployment.createWorkspace(api))
  })
  afterAll(() => collector?.close())

  it("counts the video's request, jobs, steps, credits and webhook in /metrics, and traces it in one trace", async () => {
    const form = new FormData()
    form.append("file", await openAsBlob(env.clip.path, { type: "video/mp4" }), "clip.mp4")
    form.append("webhookUrl", `${env.receiver.url}/hooks`)
    form.append("render", "{}")
    const created = await call(api.baseUrl, "/v1/caption-videos", { token, form })
    expect(created.status).toBe(200)
    const videoId: string = created.body.id
    expect(await waitForVideo(api.baseUrl, token, videoId)).toMatchObject({ status: "completed" })
    await env.deployment.until(() => env.receiver.requests.some((r) => r.headers["x-service-video-id"] === videoId), "the webhook")
    // A client's poll in its own trace: the read lane joins it (adapters/http/read-lane.ts).
    const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
    const polled = await call(api.baseUrl, `/v1/videos/${videoId}`, { token, headers: { traceparent: `00-${callerTrace}-00f067aa0ba902b7-01` } })
    expect(polled.status).toBe(200)
    // A poll the lane cannot answer is handed to the stack, which answers it in a server span of its own.
    const missingTrace = "5cf92f3577b34da6a3ce929d0e0e4737"
    const missing = await call(api.baseUrl, "/v1/videos/00000000-0000-4000-8000-000000000000", {
      token,
      headers: { traceparent: `00-${missingTrace}-00f067aa0ba902b7-01` }
    })
    expect(missing.status).toBe(404)
    // An assistant's poll through MCP, in its own trace: the MCP lane joins it (adapters/mcp/mcp-lane.ts).
    const mcpTrace = "6df92f3577b34da6a3ce929d0e0e4738"
    const mcpPoll = await fetch(`${api.baseUrl}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        traceparent: `00-${mcpTrace}-00f067aa0ba902b7-01`
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_video", arguments: { id: videoId } } })
    })
    expect(mcpPoll.status).toBe(200)
    expect(((await mcpPoll.json()) as { result: { structuredContent: { status: string } } }).result.structuredContent.status).toBe("completed")
    const charged = (await call(api.baseUrl, `/v1/credit-logs?videoId=${videoId}`, { token })).body.data as ReadonlyArray<{ amount: number }>
    const chargedCredits = charged.filter((entry) => entry.amount < 0).reduce((sum, entry) => sum - entry.amount, 0)
    expect(chargedCredits).toBeGreaterThan(0)

    // The API counted and timed the POST by its route template.
    const apiFamilies = await scrape(apiMetrics)
    expect(apiFamilies.types.get("reelwright_http_requests_total")).toBe("COUNTER")
    expect(total(samples(apiFamilies, "reelwright_http_requests_total", { method: "POST", route: "/v1/caption-videos", status: "200" }))).toBe(1)
    expect(total(samples(apiFamilies, "reelwright_http_requests_total", { route: "/v1/videos/:id", status: "200" }))).toBeGreaterThan(0)
    expect(total(samples(apiFamilies, "reelwright_http_requests_total", { method: "POST", route: "/mcp", status: "200" }))).toBe(1)
    expect(apiFamilies.types.get("reelwright_http_request_duration_seconds")).toBe("HISTOGRAM")
    expect(total(samples(apiFamilies, "reelwright_http_request_duration_seconds", { method: "POST", route: "/v1/caption-videos" }))).toBe(1)

    // The worker ran the jobs, their steps, charged the credits the ledger shows, delivered the webhook.
    const workerFamilies = await scrape(workerMetrics)
    expect(total(samples(workerFamilies, "reelwright_jobs_total", { kind: "caption-video.generate", outcome: "done" }))).toBe(1)
    expect(total(samples(workerFamilies, "reelwright_jobs_total", { kind: "video.render", outcome: "done" }))).toBe(1)
    expect(total(samples(workerFamilies, "reelwright_jobs_total", { outcome: "crashed" }))).toBe(0)
    expect(total(samples(workerFamilies, "reelwright_job_duration_seconds", { kind: "caption-video.generate" }))).toBe(1)
    expect(total(samples(workerFamilies, "reelwright_job_step_duration_seconds", { kind: "caption-video.generate", step: "transcribing" }))).toBe(1)
    expect(total(samples(workerFamilies, "reelwright_credits_charged_total"))).toBe(chargedCredits)
    expect(total(samples(workerFamilies, "reelwright_credits_charged_total", { operation: "captions" }))).toBeGreaterThan(0)
    expect(total(samples(workerFamilies, "reelwright_credits_refunded_total"))).toBe(0)
    expect(total(samples(workerFamilies, "reelwright_webhook_deliveries_total", { outcome: "delivered", attempt: "1" }))).toBe(1)
    expect(total(samples(workerFamilies, "reelwright_transcription_realtime_factor", { engine: "pocketsphinx" }))).toBe(1)
    expect(total(samples(workerFamilies, "reelwright_render_realtime_factor", { kind: "caption" }))).toBe(1)
    // The queue as the store has it, both lanes in every state, and nothing left waiting.
    for (const lane of ["media", "webhooks"]) {
      for (const state of ["ready", "running", "scheduled", "dead"]) {
        expect(samples(workerFamilies, "reelwright_queue_jobs", { lane, state })).toHaveLength(1)
      }
      expect(total(samples(workerFamilies, "reelwright_queue_jobs", { lane, state: "dead" }))).toBe(0)
      expect(total(samples(workerFamilies, "reelwright_queue_oldest_ready_age_seconds", { lane }))).toBeGreaterThanOrEqual(0)
    }
    expect(total(samples(workerFamilies, "process_resident_memory_bytes"))).toBeGreaterThan(10_000_000)
    expect(samples(workerFamilies, "nodejs_eventloop_delay_seconds", { quantile: "p99" })).toHaveLength(1)
    expect((await fetch(`http://127.0.0.1:${workerMetrics}/v1/videos`)).status).toBe(404)

    // Stopping flushes the last batch of spans.
    expect(await api.stop()).toBe(0)
    expect(await worker.stop()).toBe(0)
    const post = collector.spans.find((s) => s.name === "POST /v1/caption-videos")
    expect(post).toBeDefined()
    expect(post!.parentSpanId ?? "").toBe("")
    expect(attribute(post!, "http.response.status_code")).toBe(200)
    const trace = collector.spans.filter((s) => s.traceId === post!.traceId)
    const ids = new Set(trace.map((s) => s.spanId))
    const orphans = trace.filter((s) => s !== post && !ids.has(s.parentSpanId ?? ""))
    expect(orphans.map((s) => s.name)).toEqual([])
    const names = trace.map((s) => s.name)
    expect(names).toEqual(expect.arrayContaining(["video.step.transcribing", "deliverWebhook", "FfmpegEngine.burnCaptions"]))
    const jobs = trace.filter((s) => s.name === "JobRunner.execute").map((s) => attribute(s, "job.kind"))
    expect(jobs).toEqual(expect.arrayContaining(["caption-video.generate", "video.render", "webhook.deliver"]))
    // The spans came from both processes: the trace crossed the queue.
    expect(new Set(trace.map((s) => s.instance)).size).toBe(2)
    // The poll's server span, under the caller's, with the read's own spans under it.
    const read = collector.spans.find((s) => s.traceId === callerTrace && s.name === "GET /v1/videos/:id")
    expect(read).toBeDefined()
    expect(read!.parentSpanId).toBe("00f067aa0ba902b7")
    expect(attribute(read!, "http.response.status_code")).toBe(200)
    expect(attribute(read!, "request.id")).toBe(polled.headers.get("x-request-id"))
    const underRead = collector.spans.filter((s) => s.parentSpanId === read!.spanId).map((s) => s.name)
    expect(underRead).toEqual(expect.arrayContaining(["authenticate", "getVideo"]))
    expect(attribute(read!, HANDED_ON)).toBeUndefined()
    const missingSpans = collector.spans.filter((s) => s.traceId === missingTrace && s.name === "GET /v1/videos/:id")
    expect(missingSpans.map((s) => [attribute(s, HANDED_ON) ?? false, attribute(s, "http.response.status_code") ?? null]).sort())
      .toEqual([[false, 404], [true, null]])
    // The MCP poll's server span, under the caller's, with the tool call under it.
    const toolPoll = collector.spans.find((s) => s.traceId === mcpTrace && s.name === "POST /mcp")
    expect(toolPoll).toBeDefined()
    expect(toolPoll!.parentSpanId).toBe("00f067aa0ba902b7")
    expect(attribute(toolPoll!, "http.response.status_code")).toBe(200)
    expect(attribute(toolPoll!, "request.id")).toBe(mcpPoll.headers.get("x-request-id"))
    expect(collector.spans.filter((s) => s.traceId === mcpTrace).map((s) => s.name)).toEqual(expect.arrayContaining(["serveMcp", "getVideo"]))
    // The request's span names its route, never the path or query that may hold a token.
    for (const span of collector.spans.filter((s) => attribute(s, "http.route") !== undefined)) {
      expect(attribute(span, "url.full")).toBeUndefined()
    }
    expect(JSON.stringify(collector.spans)).not.toContain(token)
  })
})
