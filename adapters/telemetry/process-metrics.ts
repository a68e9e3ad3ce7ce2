// The process's own gauges, read when metrics are scraped: memory, and the event loop's delay since the
// previous scrape (a loop blocked by a long synchronous piece of work delays every request).
import { Effect, Metric } from "effect"
import { monitorEventLoopDelay } from "node:perf_hooks"
import { eventLoopDelay, heapUsed, residentMemory, seriesOf } from "../../src/kernel/metrics.ts"

const NS_PER_SECOND = 1e9
const delayOf = seriesOf(eventLoopDelay, "quantile")
/** The monitor's timer fires every RESOLUTION_MS; each sample includes that wait, which is not a delay. */
const RESOLUTION_MS = 10

/** Starts the event-loop monitor for the scope; the effect it gives sets the gauges and restarts the window. */
export const processMetrics = Effect.acquireRelease(
  Effect.sync(() => {
    const delays = monitorEventLoopDelay({ resolution: RESOLUTION_MS })
    delays.enable()
    return delays
  }),
  (delays) => Effect.sync(() => delays.disable())
).pipe(Effect.map((delays) =>
  Effect.suspend(() => {
    const memory = process.memoryUsage()
    const quantiles = { p50: delays.percentile(50), p99: delays.percentile(99), max: delays.max }
    delays.reset()
    return Effect.all([
      Metric.set(residentMemory, memory.rss),
      Metric.set(heapUsed, memory.heapUsed),
      ...Object.entries(quantiles).map(([quantile, ns]) =>
        Metric.set(delayOf(quantile), Number.isFinite(ns) ? Math.max(0, ns / NS_PER_SECOND - RESOLUTION_MS / 1000) : 0))
    ], { discard: true })
  })
))
