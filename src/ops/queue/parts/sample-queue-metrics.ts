// The queue's gauges, read from the store when metrics are scraped: every process that serves metrics
// sees the same queue, so dashboards take the max across instances, never the sum.
import { Clock, Effect, Metric } from "effect"
import { JobQueue } from "../../../../domain/ports/job-queue.ts"
import { queueJobs, queueOldestReadyAge, seriesOf } from "../../../kernel/metrics.ts"

const STATES = ["ready", "running", "scheduled", "dead"] as const
const jobsOf = seriesOf(queueJobs, "lane", "state")
const oldestOf = seriesOf(queueOldestReadyAge, "lane")

export const sampleQueueMetrics = Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  for (const lane of yield* (yield* JobQueue).laneStats(now)) {
    for (const state of STATES) {
      yield* Metric.set(jobsOf(lane.lane, state), lane[state])
    }
    yield* Metric.set(oldestOf(lane.lane), (lane.oldestReadyAgeMs ?? 0) / 1000)
  }
})
