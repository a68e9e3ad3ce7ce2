// JobQueue on PostgreSQL: table jobs. A claim locks the due row with FOR UPDATE SKIP LOCKED, so workers
// on any number of machines never share a job, and holds its workspace's advisory lock while it counts
// that workspace's running jobs, so claimers never run more of them at once than the plan allows.
// Times are epoch milliseconds read from Clock (never the database's now()), so TestClock drives due
// times and leases. Every write that may make work due notifies the lane's workers; inside a
// transaction the notification is sent at commit, or never.
import { randomUUID } from "node:crypto"
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import { Clock, type Duration, Effect, Layer, Option, Schema } from "effect"
import { PLAN_RULES, PLANS } from "../../domain/plans.ts"
import { type ClaimedJob, holdsLease, type Job, JobQueue, type Lane, LANES, type LaneStats, type RunEnd } from "../../domain/ports/job-queue.ts"
import { JOBS_CHANNEL, makeJobWakeups } from "./pg-job-wakeups.ts"
import { rowDecoder } from "./pg-rows.ts"
import { jsonText, NumberFromBigint } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const JobRow = Schema.Struct({
  id: Schema.String,
  lane: Schema.Literal("media", "webhooks") satisfies Schema.Schema<Lane>,
  kind: Schema.String,
  // Each kind's handler decodes its own payload.
  payload: Schema.Unknown,
  run_at: NumberFromBigint,
  attempts: Schema.Number,
  status: Schema.Literal("queued", "running", "done", "dead", "cancelled") satisfies Schema.Schema<Job["status"]>,
  locked_until: Schema.NullOr(NumberFromBigint),
  dedupe_key: Schema.NullOr(Schema.String),
  last_error: Schema.NullOr(Schema.String),
  workspace_id: Schema.NullOr(Schema.String),
  claimed_by: Schema.NullOr(Schema.String),
  trace_parent: Schema.NullOr(Schema.String)
}).pipe(Schema.rename({
  run_at: "runAt",
  locked_until: "lockedUntil",
  dedupe_key: "dedupeKey",
  last_error: "lastError",
  workspace_id: "workspaceId",
  claimed_by: "claimedBy",
  trace_parent: "traceParent"
}))

const jobRows = rowDecoder("jobs", JobRow)
const candidateRows = rowDecoder(
  "jobs",
  Schema.Struct({ id: Schema.String, workspace_id: Schema.NullOr(Schema.String), reclaimed: Schema.Boolean })
)
/** The status a run's end leaves its job in. */
const statusAfter = (end: RunEnd): Job["status"] =>
  end._tag === "Complete" ? "done" : end._tag === "Kill" ? "dead" : "queued"
/** The one-statement claim's row: its candidate was a workspace's (nothing taken), or the job it took. */
const uncappedRows = rowDecoder("jobs", Schema.Struct({ capped: Schema.Boolean, reclaimed: Schema.Boolean }))
/** Null when the workspace's plan has no cap in PLAN_CAPS. */
const fullnessRows = rowDecoder("workspaces", Schema.Struct({ full: Schema.NullOr(Schema.Boolean) }))
const nextRunRows = rowDecoder("jobs", Schema.Struct({ next: Schema.NullOr(NumberFromBigint) }))
const laneStatsRows = rowDecoder(
  "jobs",
  Schema.Struct({
    lane: Schema.Literal(...LANES),
    ready: NumberFromBigint,
    running: NumberFromBigint,
    scheduled: NumberFromBigint,
    dead: NumberFromBigint,
    oldest_ready_run_at: Schema.NullOr(NumberFromBigint)
  }),
  ["lane"]
)
const idRows = rowDecoder("jobs", Schema.Struct({ id: Schema.String }))

/** Each plan's cap as JSON, looked up by a workspace's plan in SQL: `(caps::jsonb ->> plan)::int`. */
const PLAN_CAPS = JSON.stringify(Object.fromEntries(PLANS.map((plan) => [plan, PLAN_RULES[plan].maxConcurrentJobs])))

/** The key space (first key) of the advisory locks that serialize claims per workspace (second key). */
const CLAIM_LOCK_SPACE = 720_311

/** One claim attempt: a job, none due, or a candidate whose workspace turned out full once locked. */
type Attempt =
  | { readonly _tag: "Claimed"; readonly job: Option.Option<ClaimedJob> }
  | { readonly _tag: "Full"; readonly workspaceId: string }

export interface PgJobQueueOptions {
  /** How often the LISTEN connection is checked; a dropped one is replaced within about twice this. */
  readonly listenHeartbeat?: Duration.DurationInput | undefined
}

export const PgJobQueueLive = (options: PgJobQueueOptions = {}) =>
  Layer.scoped(
    JobQueue,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const wakeups = yield* makeJobWakeups({ heartbeat: options.listenHeartbeat ?? "10 seconds" })

      /** Ends runs as the port's RunEnd says, in one statement; a job cancelled meanwhile stays cancelled. */
      const endRuns = (ends: ReadonlyArray<{ readonly id: string; readonly end: RunEnd }>) =>
        Effect.suspend(() => {
          const column = <A>(f: (end: RunEnd) => A) => ends.map(({ end }) => f(end))
          // A job queued again may be due now; a workspace's job that stops frees a place under its cap: either
          // wakes its lane's workers.
          return sql`WITH ending AS (
              SELECT * FROM unnest(${ends.map((e) => e.id)}::text[], ${column(statusAfter)}::text[],
                ${column((end) => ("runAt" in end ? end.runAt : null))}::bigint[], ${column((end) => end._tag === "Reschedule")}::boolean[],
                ${column((end) => ("error" in end ? end.error : "note" in end ? end.note : null))}::text[])
                AS e(id, status, run_at, fresh, error)
            ), changed AS (
              UPDATE jobs SET status = ending.status, locked_until = NULL, run_at = COALESCE(ending.run_at, jobs.run_at),
                attempts = CASE WHEN ending.fresh THEN 0 ELSE jobs.attempts END, last_error = COALESCE(ending.error, jobs.last_error)
              FROM ending WHERE jobs.id = ending.id AND jobs.status <> 'cancelled'
              RETURNING jobs.id, jobs.lane, jobs.status, jobs.workspace_id
            ), woken AS (
              SELECT pg_notify(${JOBS_CHANNEL}, lane) FROM (
                SELECT DISTINCT lane FROM changed WHERE status = 'queued' OR workspace_id IS NOT NULL
              ) AS lanes
            )
            SELECT id, (SELECT count(*) FROM woken)::int AS notified FROM changed`
        }).pipe(
          Effect.flatMap(idRows.all),
          Effect.map((rows) => {
            const changed = new Set(rows.map((row) => row.id))
            return ends.map(({ id }) => changed.has(id))
          }),
          Effect.orDie
        )
      /**
       * The lane's due jobs (queued and due, or running under a lapsed lease) that pass `filter`, earliest
       * first, locked for this transaction; jobs others hold locked are passed over. Two index scans
       * (jobs_due, jobs_leased) instead of one OR that scans the table.
       */
      const dueJobs = (lane: Lane, now: number, filter: Statement.Fragment, limit: number) =>
        sql`WITH queued AS (
            SELECT id, run_at, seq, workspace_id FROM jobs AS j
            WHERE lane = ${lane} AND status = 'queued' AND run_at <= ${now} AND ${filter}
            ORDER BY run_at, seq LIMIT ${limit} FOR UPDATE SKIP LOCKED
          ), leased AS (
            SELECT id, run_at, seq, workspace_id FROM jobs AS j
            WHERE lane = ${lane} AND status = 'running' AND locked_until < ${now} AND ${filter}
            ORDER BY locked_until LIMIT ${limit} FOR UPDATE SKIP LOCKED
          )
          SELECT id, workspace_id, reclaimed FROM (
            SELECT *, false AS reclaimed FROM queued UNION ALL SELECT *, true AS reclaimed FROM leased
          ) AS candidates
          ORDER BY run_at, seq LIMIT ${limit}`
      /** Leases the jobs `found` names (a statement of `dueJobs`' rows), returning them with `reclaimed`. */
      const lease = (found: Statement.Fragment, now: number, leaseMs: number, claimedBy: string) =>
        sql`WITH found AS (${found}), taken AS (
            UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ${now + leaseMs}, claimed_by = ${claimedBy}
            FROM found WHERE jobs.id = found.id AND found.workspace_id IS NULL RETURNING jobs.*
          )
          SELECT found.workspace_id IS NOT NULL AS capped, found.reclaimed, taken.* FROM found LEFT JOIN taken ON taken.id = found.id`
      const endRun = (id: string, end: RunEnd) => Effect.map(endRuns([{ id, end }]), (changed) => changed[0] === true)
      /** As an end of a run, for a change that stops a job or hands it back: true if a job changed. */
      const updateFreeingPlace = (where: Statement.Fragment, set: Statement.Fragment) =>
        sql`WITH changed AS (UPDATE jobs SET ${set} WHERE ${where} RETURNING lane, workspace_id)
          SELECT (SELECT count(*) FROM changed)::int AS changed,
            (SELECT count(*) FROM (SELECT pg_notify(${JOBS_CHANNEL}, lane) FROM changed WHERE workspace_id IS NOT NULL) AS n)::int
              AS notified`.pipe(
          Effect.map((rows) => Number(rows[0]?.["changed"] ?? 0) > 0),
          Effect.orDie
        )

      return JobQueue.of({
        enqueue: (input) =>
          Effect.suspend(() =>
            sql`WITH added AS (
              INSERT INTO jobs (id, lane, kind, payload, run_at, attempts, status, dedupe_key, workspace_id, trace_parent)
              VALUES (${randomUUID()}, ${input.lane}, ${input.kind}, ${jsonText(input.payload)}, ${input.runAt}, 0,
                'queued', ${input.dedupeKey}, ${input.workspaceId ?? null}, ${input.traceParent ?? null})
              ON CONFLICT (dedupe_key) DO NOTHING
              RETURNING *
            )
            SELECT added.*, pg_notify(${JOBS_CHANNEL}, lane) FROM added`
          ).pipe(
            Effect.flatMap(jobRows.first),
            Effect.orDie,
            withSpan("PgJobQueue.enqueue")
          ),
        claim: (lane, leaseMs, claimedBy) =>
          Clock.currentTimeMillis.pipe(
            Effect.flatMap((now) => {
              /** The workspace's jobs holding a live lease, in any lane. */
              const running = (workspaceId: Statement.Fragment) =>
                sql`(SELECT count(*) FROM jobs AS r
                  WHERE r.workspace_id = ${workspaceId} AND r.status = 'running' AND r.locked_until >= ${now})`
              /** The job is of no workspace, or of one under its plan's cap (and not found full this claim). */
              const underCap = (full: ReadonlyArray<string>) =>
                sql`(j.workspace_id IS NULL OR (NOT (j.workspace_id = ANY(${full}::text[])) AND NOT EXISTS (
                  SELECT 1 FROM workspaces AS w
                  WHERE w.id = j.workspace_id AND ${running(sql`j.workspace_id`)} >= (${PLAN_CAPS}::jsonb ->> w.plan)::int
                )))`
              const candidates = (full: ReadonlyArray<string>) => dueJobs(lane, now, underCap(full), 1)
              const candidate = (full: ReadonlyArray<string>) => candidates(full).pipe(Effect.flatMap(candidateRows.first))
              // The count in `candidate` may miss a claim committed while it ran: under the workspace's lock,
              // taken after the candidate's row, a fresh count sees every claim of the workspace before it.
              const isFull = (workspaceId: string) =>
                sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK_SPACE}, hashtext(${workspaceId}))`.pipe(
                  Effect.zipRight(sql`SELECT ${running(sql`${workspaceId}`)} >=
                    (${PLAN_CAPS}::jsonb ->> w.plan)::int AS full FROM workspaces AS w WHERE w.id = ${workspaceId}`),
                  Effect.flatMap(fullnessRows.first),
                  Effect.map(Option.exists((row) => row.full === true))
                )
              const take = (id: string) =>
                sql`UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ${now + leaseMs},
                  claimed_by = ${claimedBy} WHERE id = ${id} RETURNING *`.pipe(Effect.flatMap(jobRows.first))
              // One workspace lock per transaction, so two claimers never wait on each other's locks.
              const attempt = (full: ReadonlyArray<string>) =>
                sql.withTransaction(Effect.gen(function*() {
                  const found = yield* candidate(full)
                  if (Option.isNone(found)) return { _tag: "Claimed", job: Option.none() } satisfies Attempt
                  const { id, workspace_id: workspaceId, reclaimed } = found.value
                  if (workspaceId !== null && (yield* isFull(workspaceId))) {
                    return { _tag: "Full", workspaceId } satisfies Attempt
                  }
                  const job = yield* take(id)
                  return { _tag: "Claimed", job: Option.map(job, (taken) => ({ ...taken, reclaimed })) } satisfies Attempt
                }))
              const claimPassingOver = (full: ReadonlyArray<string>): Effect.Effect<Option.Option<ClaimedJob>, SqlError.SqlError> =>
                Effect.flatMap(attempt(full), (result: Attempt) =>
                  result._tag === "Claimed" ? Effect.succeed(result.job) : claimPassingOver([...full, result.workspaceId]))
              // A job of no workspace has no cap to count under a lock: found and taken in one statement (one
              // round trip, not four). A workspace's job found first is claimed the locking way instead.
              const uncapped = lease(candidates([]), now, leaseMs, claimedBy)
              return Effect.flatMap(uncapped, ([row]) =>
                row === undefined ? Effect.succeedNone : Effect.flatMap(uncappedRows.one(row), ({ capped, reclaimed }) =>
                  capped ? claimPassingOver([]) : Effect.map(jobRows.one(row), (job) => Option.some({ ...job, reclaimed }))))
            }),
            Effect.orDie,
            withSpan("PgJobQueue.claim")
          ),
        claimBatch: (lane, max, leaseMs, claimedBy) =>
          Clock.currentTimeMillis.pipe(
            Effect.flatMap((now) => lease(dueJobs(lane, now, sql`j.workspace_id IS NULL`, max), now, leaseMs, claimedBy)),
            Effect.flatMap(Effect.forEach((row) =>
              Effect.map(jobRows.one(row), (job): ClaimedJob => ({ ...job, reclaimed: row["reclaimed"] === true }))
            )),
            Effect.map((jobs) => [...jobs].sort((a, b) => a.runAt - b.runAt)),
            Effect.orDie,
            withSpan("PgJobQueue.claimBatch")
          ),
        extendLeases: (ids, leaseMs) =>
          Clock.currentTimeMillis.pipe(
            Effect.flatMap((now) =>
              sql`UPDATE jobs SET locked_until = ${now + leaseMs} WHERE id = ANY(${ids}::text[]) AND status = 'running'`
            ),
            Effect.asVoid,
            Effect.orDie,
            withSpan("PgJobQueue.extendLeases")
          ),
        complete: (id) => endRun(id, { _tag: "Complete" }).pipe(withSpan("PgJobQueue.complete")),
        retry: (id, runAt, error) => endRun(id, { _tag: "Retry", runAt, error }).pipe(withSpan("PgJobQueue.retry")),
        reschedule: (id, runAt, note) =>
          endRun(id, { _tag: "Reschedule", runAt, note }).pipe(withSpan("PgJobQueue.reschedule")),
        kill: (id, error) => endRun(id, { _tag: "Kill", error }).pipe(withSpan("PgJobQueue.kill")),
        endRuns: (ends) => endRuns(ends).pipe(withSpan("PgJobQueue.endRuns")),
        cancel: (dedupeKey, reason) =>
          updateFreeingPlace(
            sql`dedupe_key = ${dedupeKey} AND status IN ('queued', 'running')`,
            sql`status = 'cancelled', locked_until = NULL, last_error = ${reason}`
          ).pipe(Effect.asVoid, withSpan("PgJobQueue.cancel")),
        // The interrupted claim is not an attempt.
        release: (id) =>
          Clock.currentTimeMillis.pipe(
            Effect.flatMap((now) =>
              sql`WITH changed AS (
                  UPDATE jobs SET status = 'queued', run_at = ${now}, locked_until = NULL, attempts = GREATEST(0, attempts - 1)
                  WHERE id = ${id} AND status = 'running' RETURNING lane
                )
                SELECT pg_notify(${JOBS_CHANNEL}, lane) FROM changed`
            ),
            Effect.asVoid,
            Effect.orDie,
            withSpan("PgJobQueue.release")
          ),
        waitForWork: (lane, maxWait) => wakeups.wait(lane, maxWait).pipe(withSpan("PgJobQueue.waitForWork")),
        get: (id) =>
          sql`SELECT * FROM jobs WHERE id = ${id}`.pipe(
            Effect.flatMap(jobRows.first),
            Effect.orDie,
            withSpan("PgJobQueue.get")
          ),
        // A running job's lease is expired once locked_until < now, so it is claimable from locked_until + 1.
        nextRunAt: (lane) =>
          sql`SELECT MIN(CASE WHEN status = 'queued' THEN run_at
              ELSE locked_until + 1 END) AS next
            FROM jobs
            WHERE lane = ${lane} AND (status = 'queued' OR (status = 'running' AND locked_until IS NOT NULL))`.pipe(
            Effect.flatMap(nextRunRows.first),
            Effect.map(Option.flatMap((row) => Option.fromNullable(row.next))),
            Effect.orDie,
            withSpan("PgJobQueue.nextRunAt")
          ),
        // Finished jobs are most of the table: naming the lanes and statuses lets jobs_due (lane, status, …) reach only the rows counted.
        laneStats: (now) => {
          const ready = sql`((status = 'queued' AND run_at <= ${now}) OR (status = 'running' AND locked_until < ${now}))`
          return sql`SELECT lane,
              count(*) FILTER (WHERE ${ready}) AS ready,
              count(*) FILTER (WHERE status = 'running' AND locked_until >= ${now}) AS running,
              count(*) FILTER (WHERE status = 'queued' AND run_at > ${now}) AS scheduled,
              count(*) FILTER (WHERE status = 'dead') AS dead,
              min(run_at) FILTER (WHERE ${ready}) AS oldest_ready_run_at
            FROM jobs WHERE lane = ANY(${[...LANES]}::text[]) AND status IN ('queued', 'running', 'dead') GROUP BY lane`.pipe(
            Effect.flatMap(laneStatsRows.all),
            Effect.map((rows) =>
              LANES.map((lane): LaneStats => {
                const row = rows.find((r) => r.lane === lane)
                if (row === undefined) return { lane, ready: 0, running: 0, scheduled: 0, dead: 0, oldestReadyAgeMs: null }
                const { dead, oldest_ready_run_at: oldest, ready, running, scheduled } = row
                return { lane, ready, running, scheduled, dead, oldestReadyAgeMs: oldest === null ? null : now - oldest }
              })
            ),
            Effect.orDie,
            withSpan("PgJobQueue.laneStats")
          )
        },
        listRunning: (now) =>
          sql`SELECT * FROM jobs WHERE status = 'running' AND locked_until >= ${now} ORDER BY run_at, seq`.pipe(
            Effect.flatMap(jobRows.all),
            // The query chose these rows; the guard tells the type so.
            Effect.map((jobs) => jobs.filter((job) => holdsLease(job, now))),
            Effect.orDie,
            withSpan("PgJobQueue.listRunning")
          ),
        requeueDead: (id, runAt) =>
          sql`WITH changed AS (
              UPDATE jobs SET status = 'queued', run_at = ${runAt}, attempts = 0, locked_until = NULL
              WHERE id = ${id} AND status = 'dead' RETURNING id, lane
            )
            SELECT id, pg_notify(${JOBS_CHANNEL}, lane) FROM changed`.pipe(
            Effect.flatMap(idRows.all),
            Effect.map((rows) => rows.length > 0),
            Effect.orDie,
            withSpan("PgJobQueue.requeueDead")
          )
      })
    })
  )
