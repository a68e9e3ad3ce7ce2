import { Context, type Duration, type Effect, type Option } from "effect"

/** Lanes keep webhook deliveries from waiting behind long renders. */
export const LANES = ["media", "webhooks"] as const
export type Lane = (typeof LANES)[number]

export interface Job {
  readonly id: string
  readonly lane: Lane
  readonly kind: string
  readonly payload: unknown
  /** Epoch milliseconds; the job is not claimed before. */
  readonly runAt: number
  /** Claims so far, including the current one. */
  readonly attempts: number
  /** `cancelled`: stopped for good on request; never claimed again. */
  readonly status: "queued" | "running" | "done" | "dead" | "cancelled"
  readonly lockedUntil: number | null
  readonly dedupeKey: string | null
  readonly lastError: string | null
  /** The workspace the job works for, whose plan caps its jobs running at once; null = not capped. */
  readonly workspaceId: string | null
  /** The worker that claimed it last (`host:pid`), so an operator can tell who holds a running job; null before any claim. */
  readonly claimedBy: string | null
  /**
   * The W3C `traceparent` of the span that queued the job, so that the job's spans join the trace of the
   * request that caused it; null when tracing was off.
   */
  readonly traceParent: string | null
}

/** A job a claim just took: `reclaimed` when it was running under a lapsed lease (its worker crashed or stalled). */
export type ClaimedJob = Job & { readonly reclaimed: boolean }

/** A job a worker holds: running under a lease that lapses at `lockedUntil`. */
export type LeasedJob = Job & { readonly status: "running"; readonly lockedUntil: number }

/** Whether the job runs under a live lease at `now` (a lease is expired once `lockedUntil < now`). */
export const holdsLease = (job: Job, now: number): job is LeasedJob =>
  job.status === "running" && job.lockedUntil !== null && job.lockedUntil >= now

/** How a run ends, as `complete`, `retry`, `reschedule` and `kill` end one. */
export type RunEnd =
  | { readonly _tag: "Complete" }
  | { readonly _tag: "Retry"; readonly runAt: number; readonly error: string }
  | { readonly _tag: "Reschedule"; readonly runAt: number; readonly note: string }
  | { readonly _tag: "Kill"; readonly error: string }

/** A lane's jobs at one instant, for operators. */
export interface LaneStats {
  readonly lane: Lane
  /** Due and waiting for a worker: queued and due, or running with a lapsed lease. */
  readonly ready: number
  /** Running with a live lease. */
  readonly running: number
  /** Queued, due later. */
  readonly scheduled: number
  readonly dead: number
  /** How long the oldest ready job has been due (now − its runAt); null when none is ready. */
  readonly oldestReadyAgeMs: number | null
}

export interface JobQueueShape {
  /** A job whose dedupe key exists already is not added again (`None`). */
  readonly enqueue: (job: {
    readonly lane: Lane
    readonly kind: string
    readonly payload: unknown
    readonly runAt: number
    readonly dedupeKey: string | null
    /** Left out for work of no workspace's, and for quick jobs that must never wait behind a workspace's cap (webhook deliveries). */
    readonly workspaceId?: string
    readonly traceParent?: string
  }) => Effect.Effect<Option.Option<Job>>
  /**
   * Takes the oldest due job of the lane (queued, or running with an expired lease) and leases it,
   * passing over the jobs of a workspace that already has its plan's `maxConcurrentJobs` running (jobs
   * of any lane holding a live lease). Claimers in any number of processes never exceed a cap; a job of
   * a workspace with no record is not capped.
   */
  readonly claim: (lane: Lane, leaseMs: number, claimedBy: string) => Effect.Effect<Option.Option<ClaimedJob>>
  /**
   * Up to `max` due jobs of the lane that no workspace caps, leased together in one step (a lane of quick
   * jobs, whose store round trips would cost more than the jobs). Jobs of a workspace are left to `claim`.
   */
  readonly claimBatch: (lane: Lane, max: number, leaseMs: number, claimedBy: string) => Effect.Effect<ReadonlyArray<ClaimedJob>>
  /** Extends the leases of the running jobs named. */
  readonly extendLeases: (ids: ReadonlyArray<string>, leaseMs: number) => Effect.Effect<void>
  /*
   * complete, retry, reschedule and kill end a run. Each changes nothing and answers false when the job
   * was cancelled meanwhile, so the runner learns of a late cancel from the change itself.
   */
  readonly complete: (id: string) => Effect.Effect<boolean>
  /** Back to queued, not before `runAt`, after a crash: the claim counts toward the crash limit. */
  readonly retry: (id: string, runAt: number, error: string) => Effect.Effect<boolean>
  /**
   * Back to queued, not before `runAt`, as the handler chose (a webhook's next attempt): the claim
   * was not a crash, so the attempt count starts again.
   */
  readonly reschedule: (id: string, runAt: number, note: string) => Effect.Effect<boolean>
  readonly kill: (id: string, error: string) => Effect.Effect<boolean>
  /** Ends several runs in one step, each as its own call would; answers, in order, whether each changed. */
  readonly endRuns: (ends: ReadonlyArray<{ readonly id: string; readonly end: RunEnd }>) => Effect.Effect<ReadonlyArray<boolean>>
  /**
   * Stops the job with this dedupe key for good, if it is queued or running (otherwise nothing
   * changes): it is never claimed again, and the worker running it sees `cancelled` and interrupts it.
   */
  readonly cancel: (dedupeKey: string, reason: string) => Effect.Effect<void>
  /**
   * Gives a running job back at once (a worker shutting down): queued again, due now, and the
   * interrupted claim does not count as an attempt.
   */
  readonly release: (id: string) => Effect.Effect<void>
  /** Returns when work may have arrived in the lane (a wake-up hint) or after `maxWait`, whichever is first. */
  readonly waitForWork: (lane: Lane, maxWait: Duration.DurationInput) => Effect.Effect<void>
  readonly get: (id: string) => Effect.Effect<Option.Option<Job>>
  /** Epoch ms of the next due job in the lane, for sleeping until then. */
  readonly nextRunAt: (lane: Lane) => Effect.Effect<Option.Option<number>>
  /** Each lane's counts at `now`: always both lanes, `media` first. */
  readonly laneStats: (now: number) => Effect.Effect<ReadonlyArray<LaneStats>>
  /** The jobs running with a live lease at `now`, the earliest due first. */
  readonly listRunning: (now: number) => Effect.Effect<ReadonlyArray<LeasedJob>>
  /**
   * A dead job back to queued, due at `runAt`, its attempts starting again (an operator's retry); false,
   * changing nothing, for a job that is not dead or not known.
   */
  readonly requeueDead: (id: string, runAt: number) => Effect.Effect<boolean>
}
export class JobQueue extends Context.Tag("JobQueue")<JobQueue, JobQueueShape>() {}
