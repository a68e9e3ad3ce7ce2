import { Clock, Effect, Option, Schema } from "effect"
import { type Job, JobQueue, LANES } from "../../../domain/ports/job-queue.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { Step } from "../../../domain/video.ts"
import { operation } from "../../kernel/operation.ts"

const Lane = Schema.Literal(...LANES).annotations({
  description: "`media`: the jobs that make videos and other media; `webhooks`: webhook deliveries."
})

const LaneStatus = Schema.Struct({
  lane: Lane,
  ready: Schema.Int.annotations({
    description: "Jobs due and waiting for a worker: queued and due, or running under a lease that lapsed (their worker stopped)."
  }),
  running: Schema.Int.annotations({ description: "Jobs a worker holds under a live lease." }),
  scheduled: Schema.Int.annotations({ description: "Jobs queued to run later (a retry's backoff, a webhook's next attempt)." }),
  dead: Schema.Int.annotations({ description: "Jobs that gave up; `jobs:retry` queues one again." }),
  oldestReadyAgeSeconds: Schema.NullOr(Schema.Int).annotations({
    description: "How long the oldest ready job has been due, in whole seconds; null when none is ready. Growing: the lane's workers are behind or stopped."
  })
})

const RunningJob = Schema.Struct({
  jobId: Schema.String.annotations({ description: "The job's id (what `jobs:retry` takes)." }),
  kind: Schema.String.annotations({ description: "What the job does, such as `caption-video.generate` or `webhook.deliver`." }),
  lane: Lane,
  attempt: Schema.Int.annotations({ description: "Which claim of the job this is: 1 for the first, more after crashes." }),
  claimedBy: Schema.NullOr(Schema.String).annotations({ description: "The worker holding it, as `host:pid`." }),
  leaseExpiresAt: Schema.String.annotations({
    description: "When its lease lapses (ISO 8601); the worker renews it while the job runs, so one long past means that worker stopped."
  }),
  videoId: Schema.NullOr(Schema.String).annotations({ description: "The video the job works on; null for a job of no video." }),
  step: Schema.NullOr(Step).annotations({ description: "That video's pipeline step now; null for a job of no video (or a video no longer stored)." })
})

/** Video jobs name their video in the payload; other jobs (webhooks, sweeps) have none. */
const videoIdOf = (job: Job): string | null =>
  Option.getOrNull(Option.map(Schema.decodeUnknownOption(Schema.Struct({ videoId: Schema.String }))(job.payload), (p) => p.videoId))

export const getQueueStatus = operation({
  name: "getQueueStatus",
  summary: "Queue status (admin)",
  description:
    "Each lane's jobs at this instant (ready, running, scheduled, dead, and how long the oldest ready job has waited), " +
    "and the jobs running now: which worker holds each, until when, and the step of the video it works on.",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: Schema.Struct({
    lanes: Schema.Array(LaneStatus).annotations({ description: "Both lanes, `media` first." }),
    running: Schema.Array(RunningJob).annotations({ description: "The jobs running under a live lease, the earliest due first." })
  }),
  errors: [],
  http: { method: "GET", path: "/admin/queue" },
  access: "admin",
  tool: null,
  cli: "queue",
  idempotent: false,
  handle: () =>
    Effect.gen(function*() {
      const queue = yield* JobQueue
      const videos = yield* VideoStore
      // One instant for both reads, so the running count and the running list agree.
      const now = yield* Clock.currentTimeMillis
      const lanes = yield* queue.laneStats(now)
      const running = yield* Effect.forEach(yield* queue.listRunning(now), (job) =>
        Effect.gen(function*() {
          const videoId = videoIdOf(job)
          const video = videoId === null ? Option.none() : yield* videos.getById(videoId)
          return {
            jobId: job.id,
            kind: job.kind,
            lane: job.lane,
            attempt: job.attempts,
            claimedBy: job.claimedBy,
            leaseExpiresAt: new Date(job.lockedUntil).toISOString(),
            videoId,
            step: Option.getOrNull(Option.map(video, (v) => v.step))
          }
        }))
      return {
        lanes: lanes.map(({ oldestReadyAgeMs, ...counts }) => ({
          ...counts,
          oldestReadyAgeSeconds: oldestReadyAgeMs === null ? null : Math.floor(oldestReadyAgeMs / 1000)
        })),
        running
      }
    })
})
