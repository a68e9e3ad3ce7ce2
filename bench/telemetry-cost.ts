// What metrics and tracing cost on the hot path, in one run: the same work with telemetry off and on.
//   off:     no METRICS_PORT, no OTEL_EXPORTER_OTLP_ENDPOINT (spans are no-ops, metrics counted in memory only)
//   on:      METRICS_PORT served and scraped every 5 s (as Prometheus would), every span exported by
//            OTLP/HTTP JSON every second (OTEL_BSP_SCHEDULE_DELAY=1000) to a sink in this process that counts them
//   sampled: as on, keeping one new trace in ten (OTEL_TRACES_SAMPLER=parentbased_traceidratio, ARG 0.1);
//            GET load only
// (1) GET /v1/videos/:id under load, as get-video-load.ts: ROLE api on a scratch PostgreSQL database,
//     50 connections, 2 s of warm-up then 10 s measured. (2) the caption pipeline over HTTP, as
//     caption-render.ts's (c), on a 20 s 1080x1920 30 fps spoken clip: ROLE all, embedded database.
// Each is measured in alternation (off/on/sampled, twice), a fresh service per measurement; the figures
// are the medians. Targets: GET req/s on/off >= 0.95; the pipeline on within the noise of the off runs.
import { mkdtemp, rm } from "node:fs/promises"
import { createServer as createHttpServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createServer as createNetServer } from "node:net"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync } from "node:zlib"
import { type Clip, makeClip, pipeline } from "./caption-render.ts"
import { type Figure, isEntryPoint, median, report } from "./figures.ts"
import { CONNECTIONS, insertVideo, load, SECONDS, startServiceWith, WARMUP_SECONDS } from "./get-video-load.ts"
import type { Load } from "./http-load.ts"
import { createScratchDatabase } from "./scratch-database.ts"
import type { ServiceProcess } from "./service-process.ts"

const BENCH = "telemetry-cost"
const ROUNDS = 3
/** on: every trace exported; sampled: one new trace in SAMPLED_RATIO kept (OTEL_TRACES_SAMPLER), metrics the same. */
const MODES = ["off", "on", "sampled"] as const
type Mode = (typeof MODES)[number]
const PIPELINE_MODES = ["off", "on"] as const
const SAMPLED_RATIO = 0.1
const CLIP_SECONDS = 20
const SCRAPE_INTERVAL_MS = 5_000
const EXPORT_INTERVAL_MS = 1_000
const RPS_TARGET = 0.95
const NOISE_FLOOR = 0.03
/** Whatever this process has of these would reach an "off" service: they are hidden around every start. */
const TELEMETRY_VARS = [
  "METRICS_PORT",
  "METRICS_HOST",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG"
]

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createNetServer()
    probe.once("error", fail)
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as AddressInfo).port
      probe.close(() => done(port))
    })
  })

// ---------------------------------------------------------------------------------------------------
// The collector: counts the spans of every OTLP/HTTP JSON export and answers 200 {}. It shares the two
// cores with the service and the load, so it counts without parsing: one `"spanId":"` per span.

interface Sink {
  readonly url: string
  readonly spans: () => number
  readonly batches: () => number
  readonly unreadable: () => number
  /** Time this process spent reading the exports (the count), in ms. */
  readonly parseMs: () => number
  readonly close: () => Promise<void>
}

const SPAN_ID = Buffer.from('"spanId":"')

/** Spans in an OTLP/HTTP JSON export: each has one `spanId` (`parentSpanId` is spelt otherwise). */
const spansIn = (body: Buffer): number => {
  let count = 0
  for (let at = body.indexOf(SPAN_ID); at !== -1; at = body.indexOf(SPAN_ID, at + SPAN_ID.length)) count++
  return count
}

const startSink = async (): Promise<Sink> => {
  let spans = 0
  let batches = 0
  let unreadable = 0
  let parseMs = 0
  const server = createHttpServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const started = performance.now()
      try {
        const raw = Buffer.concat(chunks)
        spans += spansIn(request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw)
        batches++
      } catch {
        unreadable++
      }
      parseMs += performance.now() - started
      response.writeHead(200, { "content-type": "application/json", "content-length": 2 })
      response.end("{}")
    })
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    batches: () => batches,
    unreadable: () => unreadable,
    parseMs: () => parseMs,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      })
  }
}

// ---------------------------------------------------------------------------------------------------
// /metrics, read every 5 s in the background while an "on" service runs.

interface Scraper {
  readonly stop: () => Promise<{ readonly scrapes: number; readonly failures: number; readonly bytes: number }>
}

const scrapeEvery = (url: string, intervalMs: number): Scraper => {
  let scrapes = 0
  let failures = 0
  let bytes = 0
  let inFlight: Promise<void> = Promise.resolve()
  const scrape = () => {
    inFlight = fetch(url).then(
      async (response) => {
        const text = await response.text()
        if (response.ok && text.length > 0) {
          scrapes++
          bytes = text.length
        } else failures++
      },
      () => {
        failures++
      }
    )
  }
  scrape()
  const timer = setInterval(scrape, intervalMs)
  return {
    stop: async () => {
      clearInterval(timer)
      await inFlight
      return { scrapes, failures, bytes }
    }
  }
}

// ---------------------------------------------------------------------------------------------------

interface Running {
  readonly service: ServiceProcess
  /** Set for "on". */
  readonly metricsUrl: string | undefined
}

/** The service with `vars`, plus the telemetry variables for "on"; `hidden` (and any telemetry of ours) kept from it. */
const startIn = async (
  mode: Mode,
  sink: Sink,
  vars: Readonly<Record<string, string>>,
  hidden: ReadonlyArray<string> = []
): Promise<Running> => {
  const metricsPort = mode === "off" ? undefined : await freePort()
  const telemetry: Record<string, string> = metricsPort === undefined ? {} : {
    METRICS_PORT: String(metricsPort),
    OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
    OTEL_BSP_SCHEDULE_DELAY: String(EXPORT_INTERVAL_MS),
    ...(mode === "sampled" ? { OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: String(SAMPLED_RATIO) } : {})
  }
  const saved = [...TELEMETRY_VARS, ...hidden].map((key) => [key, process.env[key]] as const)
  for (const [key] of saved) delete process.env[key]
  try {
    const service = await startServiceWith({ ...vars, ...telemetry })
    return { service, metricsUrl: metricsPort === undefined ? undefined : `http://127.0.0.1:${metricsPort}/metrics` }
  } finally {
    for (const [key, value] of saved) {
      if (value !== undefined) process.env[key] = value
    }
  }
}

const ratioOf = (on: number | null, off: number | null): number | null =>
  on === null || off === null || off === 0 ? null : on / off

const medianOrNull = (values: ReadonlyArray<number | null>): number | null => {
  const known = values.filter((v): v is number => v !== null)
  return known.length === 0 ? null : median(known)
}

const perMode = <A>(): Record<Mode, Array<A>> => ({ off: [], on: [], sampled: [] })

const getLoad = async (sink: Sink): Promise<ReadonlyArray<Figure>> => {
  const database = await createScratchDatabase(BENCH)
  try {
    const loads = perMode<Load>()
    const spans = { off: 0, on: 0, sampled: 0 }
    let scrapes = 0
    let scrapeFailures = 0
    let metricsBytes = 0
    console.log(`${BENCH}: GET load, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARMUP_SECONDS} s of warm-up, off/on/sampled x ${ROUNDS}`)
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of MODES) {
        const spansBefore = sink.spans()
        const { metricsUrl, service } = await startIn(mode, sink, { DATABASE_URL: database.url, ROLE: "api" })
        let measured: Load
        let scraped = ""
        try {
          const videoId = await insertVideo(database.url, service.token)
          const url = `${service.baseUrl}/v1/videos/${videoId}`
          const scraper = metricsUrl === undefined ? undefined : scrapeEvery(metricsUrl, SCRAPE_INTERVAL_MS)
          try {
            await load(url, service.token, WARMUP_SECONDS, service.pid)
            measured = await load(url, service.token, SECONDS, service.pid)
          } finally {
            const s = await scraper?.stop()
            if (s !== undefined) {
              scrapes += s.scrapes
              scrapeFailures += s.failures
              metricsBytes = s.bytes
              scraped = `, /metrics scraped ${s.scrapes}x (${s.failures} failed)`
            }
          }
        } finally {
          // Stopping flushes the last batch of spans.
          await service.stop()
        }
        const received = sink.spans() - spansBefore
        spans[mode] += received
        loads[mode].push(measured)
        const cpu = measured.cpuMsPerRequest === null ? "-" : measured.cpuMsPerRequest.toFixed(3)
        console.log(
          `${BENCH}: GET round ${round}/${ROUNDS} ${mode.padEnd(7)} ${measured.requestsPerSecond.toFixed(0)} req/s, p50 ${measured.p50Ms} ms, ` +
            `p99 ${measured.p99Ms} ms, server CPU ${cpu} ms/req, ${received} spans received${scraped}` +
            (measured.failures > 0 ? `, ${measured.failures} FAILED requests` : "")
        )
      }
    }
    const rps = {
      off: median(loads.off.map((l) => l.requestsPerSecond)),
      on: median(loads.on.map((l) => l.requestsPerSecond)),
      sampled: median(loads.sampled.map((l) => l.requestsPerSecond))
    }
    const sampledRatio = rps.sampled / rps.off
    const p99 = { off: median(loads.off.map((l) => l.p99Ms)), on: median(loads.on.map((l) => l.p99Ms)) }
    const cpu = { off: medianOrNull(loads.off.map((l) => l.cpuMsPerRequest)), on: medianOrNull(loads.on.map((l) => l.cpuMsPerRequest)) }
    const failedOf = (mode: Mode) => loads[mode].reduce((n, l) => n + l.failures, 0)
    const failures = { off: failedOf("off"), on: failedOf("on"), sampled: failedOf("sampled") }
    const ratio = rps.on / rps.off
    const each = `median of ${ROUNDS}`
    const failed = (mode: Mode) => (failures[mode] > 0 ? `; ${failures[mode]} failed requests` : "")
    const tracingNote = spans.on === 0
      ? "NO SPANS RECEIVED: tracing was NOT on, the 'on' figures do not measure it"
      : `${sink.batches()} batches so far, ${sink.unreadable()} unreadable; sink parsing ${sink.parseMs().toFixed(0)} ms in all` +
        (spans.off > 0 ? `; ${spans.off} spans during 'off' rounds (should be 0)` : "")
    return [
      { bench: BENCH, name: "GET load, off: throughput", value: rps.off, unit: "req/s", note: each + failed("off") },
      { bench: BENCH, name: "GET load, on: throughput", value: rps.on, unit: "req/s", note: each + failed("on") },
      { bench: BENCH, name: "GET load, off: p99 latency", value: p99.off, unit: "ms", note: each },
      { bench: BENCH, name: "GET load, on: p99 latency", value: p99.on, unit: "ms", note: each },
      { bench: BENCH, name: "GET load, off: server CPU per request", value: cpu.off, unit: "ms", note: cpu.off === null ? "no /proc here" : each },
      { bench: BENCH, name: "GET load, on: server CPU per request", value: cpu.on, unit: "ms", note: cpu.on === null ? "no /proc here" : each },
      {
        bench: BENCH,
        name: "GET load, req/s on/off",
        value: ratio,
        unit: "x",
        note: `target >= ${RPS_TARGET}: ${ratio >= RPS_TARGET ? "met" : "NOT met"}; load average ${loadavg()[0]!.toFixed(2)}`
      },
      { bench: BENCH, name: "GET load, on: spans received", value: spans.on, unit: "spans", note: tracingNote },
      { bench: BENCH, name: "GET load, sampled: throughput", value: rps.sampled, unit: "req/s", note: `${each}; ${SAMPLED_RATIO} of traces kept` + failed("sampled") },
      {
        bench: BENCH,
        name: "GET load, req/s sampled/off",
        value: sampledRatio,
        unit: "x",
        note: `target >= ${RPS_TARGET}: ${sampledRatio >= RPS_TARGET ? "met" : "NOT met"}; ${spans.sampled} spans received`
      },
      {
        bench: BENCH,
        name: "GET load, on: /metrics scrapes",
        value: scrapes,
        unit: "scrapes",
        note: `${scrapeFailures} failed; every ${SCRAPE_INTERVAL_MS / 1000} s; last ${(metricsBytes / 1024).toFixed(1)} KiB`
      }
    ]
  } finally {
    await database.drop()
  }
}

const captionPipeline = async (sink: Sink): Promise<ReadonlyArray<Figure>> => {
  const dir = await mkdtemp(join(tmpdir(), "bench-telemetry-cost-"))
  try {
    console.log(`${BENCH}: making the ${CLIP_SECONDS} s 1080x1920 30 fps spoken clip (not timed)`)
    const clip: Clip = await makeClip(dir, CLIP_SECONDS)
    console.log(`${BENCH}: clip ${(clip.bytes / 1e6).toFixed(1)} MB, ${clip.words} words; pipeline off/on x ${ROUNDS}`)
    const times = perMode<number>()
    const spans = { off: 0, on: 0, sampled: 0 }
    const failures: Array<string> = []
    for (let round = 1; round <= ROUNDS; round++) {
      for (const mode of PIPELINE_MODES) {
        const spansBefore = sink.spans()
        // ROLE all with its embedded database, as caption-render.ts's (c).
        const { metricsUrl, service } = await startIn(mode, sink, { ROLE: "all" }, ["DATABASE_URL"])
        let outcome: number | Error
        let scraped = ""
        try {
          const scraper = metricsUrl === undefined ? undefined : scrapeEvery(metricsUrl, SCRAPE_INTERVAL_MS)
          try {
            outcome = await pipeline(service, clip).then(
              (r) => r.totalSeconds,
              (e: unknown) => (e instanceof Error ? e : new Error(String(e)))
            )
          } finally {
            const s = await scraper?.stop()
            if (s !== undefined) scraped = `, /metrics scraped ${s.scrapes}x (${s.failures} failed)`
          }
        } finally {
          await service.stop()
        }
        const received = sink.spans() - spansBefore
        spans[mode] += received
        if (outcome instanceof Error) {
          failures.push(`${mode} round ${round}: ${outcome.message.slice(0, 100)}`)
          console.log(`${BENCH}: pipeline round ${round}/${ROUNDS} ${mode.padEnd(3)} FAILED: ${outcome.message}`)
          continue
        }
        times[mode].push(outcome)
        console.log(`${BENCH}: pipeline round ${round}/${ROUNDS} ${mode.padEnd(3)} ${outcome.toFixed(2)} s, ${received} spans received${scraped}`)
      }
    }
    const off = times.off.length > 0 ? median(times.off) : null
    const on = times.on.length > 0 ? median(times.on) : null
    const spread = times.off.length > 0 ? Math.max(...times.off) - Math.min(...times.off) : null
    const ratio = ratioOf(on, off)
    const noise = (): string => {
      if (on === null || off === null || spread === null) return "n/a: a run failed"
      const difference = Math.abs(on - off)
      const within = difference <= spread || difference <= NOISE_FLOOR * off
      return `${within ? "within noise" : "NOT within noise"}: |on - off| ${difference.toFixed(2)} s, ` +
        `off spread ${spread.toFixed(2)} s, ${(NOISE_FLOOR * 100).toFixed(0)}% of off ${(NOISE_FLOOR * off).toFixed(2)} s`
    }
    const failed = failures.length > 0 ? `; FAILED: ${failures.join(" | ")}` : ""
    return [
      { bench: BENCH, name: "pipeline, off: POST to completed", value: off, unit: "s", note: `median of ${times.off.length}: ${times.off.map((t) => t.toFixed(2)).join(", ")}` },
      { bench: BENCH, name: "pipeline, on: POST to completed", value: on, unit: "s", note: `median of ${times.on.length}: ${times.on.map((t) => t.toFixed(2)).join(", ")}` },
      { bench: BENCH, name: "pipeline, on/off", value: ratio, unit: "x", note: noise() + failed },
      {
        bench: BENCH,
        name: "pipeline, on: spans received",
        value: spans.on,
        unit: "spans",
        note: spans.on === 0
          ? "NO SPANS RECEIVED: tracing was NOT on, the 'on' figures do not measure it"
          : spans.off > 0 ? `${spans.off} spans during 'off' runs (should be 0)` : ""
      }
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

export const telemetryCost = async (): Promise<ReadonlyArray<Figure>> => {
  const sink = await startSink()
  try {
    return [...(await getLoad(sink)), ...(await captionPipeline(sink))]
  } finally {
    await sink.close()
  }
}

if (isEntryPoint(import.meta.url)) await report(await telemetryCost())
