// Every metric the service records, declared once with its Prometheus name: the README's "Operating
// Reelwright" section and docs/grafana-dashboard.json use these names. They are Effect metrics, kept in
// the process's registry whether or not anything reads them; METRICS_PORT serves them
// (adapters/telemetry/prometheus-endpoint.ts). Labels are small closed sets (route templates, job kinds,
// lanes, operations): never ids, which would make a series per video.
import { Duration, Effect, FiberRef, Metric, MetricBoundaries, MetricKey, MetricLabel } from "effect"

const seconds = (...bounds: ReadonlyArray<number>) => MetricBoundaries.fromIterable(bounds)

/**
 * Answers by method, route template and status. The request log makes each labelled series from the key
 * once (`Metric.fromMetricKey`): a `Metric.tagged` series looks itself up in the registry on every update.
 */
export const httpRequestsKey = MetricKey.counter("reelwright_http_requests_total", {
  description: "HTTP requests answered, by method, route template and status",
  incremental: true
})

export const httpRequestDurationKey = MetricKey.histogram(
  "reelwright_http_request_duration_seconds",
  seconds(0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
  "Time from a request's arrival to its answer, by method and route template"
)

/**
 * A metric's series by label values, each made once. `Metric.tagged` made on every update looks its
 * series up in the registry by a freshly hashed key each time, which costs more than a quick job.
 */
export const seriesOf = <Type, In, Out>(metric: Metric.Metric<Type, In, Out>, ...labels: ReadonlyArray<string>) => {
  const made = new Map<string, Metric.Metric<Type, In, Out>>()
  return (...values: ReadonlyArray<string>): Metric.Metric<Type, In, Out> => {
    const key = values.join("\u0000")
    const found = made.get(key)
    if (found !== undefined) return found
    const series = Metric.taggedWithLabels(metric, labels.map((label, i) => MetricLabel.make(label, values[i] ?? "")))
    made.set(key, series)
    return series
  }
}

/** Job runs by kind and outcome: done, retry (the handler scheduled another attempt), crashed, dead, cancelled. */
export const jobsRun = Metric.counter("reelwright_jobs_total", {
  description: "Job runs ended, by job kind and outcome (done, retry, crashed, dead, cancelled)",
  incremental: true
})

const workSeconds = seconds(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600)

export const jobDuration = Metric.histogram("reelwright_job_duration_seconds", workSeconds, "How long one run of a job took, by job kind")

export const stepDuration = Metric.histogram(
  "reelwright_job_step_duration_seconds",
  workSeconds,
  "How long one step of a job took (probing, transcribing, rendering…), by job kind and step"
)

/** Jobs found running under a lapsed lease and claimed again: their worker crashed or stalled. */
export const leasesReclaimed = Metric.counter("reelwright_job_leases_reclaimed_total", {
  description: "Jobs claimed again after their worker's lease lapsed, by lane",
  incremental: true
})

/** Read from the store when /metrics is scraped: the queue as every process sees it. */
export const queueJobs = Metric.gauge("reelwright_queue_jobs", {
  description: "Jobs in the queue by lane and state (ready, running, scheduled, dead), read from the store"
})

export const queueOldestReadyAge = Metric.gauge("reelwright_queue_oldest_ready_age_seconds", {
  description: "How long the oldest ready job of the lane has waited for a worker (0 when none waits)"
})

export const webhookDeliveries = Metric.counter("reelwright_webhook_deliveries_total", {
  description: "Webhook delivery attempts by outcome (delivered, failed, dropped) and attempt number",
  incremental: true
})

export const creditsCharged = Metric.counter("reelwright_credits_charged_total", {
  description: "Credits charged, by operation, counted once the charge is committed",
  incremental: true
})

export const creditsRefunded = Metric.counter("reelwright_credits_refunded_total", {
  description: "Credits refunded, by the operation whose charge was paid back",
  incremental: true
})

const factors = seconds(0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10)

export const transcriptionRealtimeFactor = Metric.histogram(
  "reelwright_transcription_realtime_factor",
  factors,
  "Seconds of transcription per second of audio, by engine (below 1 is faster than real time)"
)

export const renderRealtimeFactor = Metric.histogram(
  "reelwright_render_realtime_factor",
  factors,
  "Seconds of rendering per second of video, by video kind"
)

/** Records how long work on `mediaSeconds` of media took, per second of it; nothing for empty media. */
export const recordRealtimeFactor = (
  histogram: typeof transcriptionRealtimeFactor,
  labels: Readonly<Record<string, string>>,
  took: Duration.Duration,
  mediaSeconds: number
): Effect.Effect<void> =>
  mediaSeconds > 0
    ? Metric.update(Metric.taggedWithLabels(histogram, Object.entries(labels).map(([key, value]) => MetricLabel.make(key, value))), Duration.toSeconds(took) / mediaSeconds)
    : Effect.void

export const residentMemory = Metric.gauge("process_resident_memory_bytes", { description: "Resident set size of the process" })

export const heapUsed = Metric.gauge("nodejs_heap_used_bytes", { description: "V8 heap in use" })

export const eventLoopDelay = Metric.gauge("nodejs_eventloop_delay_seconds", {
  description: "Event-loop delay since the previous scrape, by quantile (p50, p99, max)"
})

/** The kind of the job this fiber runs, for the step histogram; empty outside a job. */
export const currentJobKind = FiberRef.unsafeMake("")
