// JobQueue on PostgreSQL: table jobs. A claim locks the due row with FOR UPDATE SKIP LOCKED, so workers
// on any number of machines never share a job. Times are epoch milliseconds read from Clock (never the
// database's now()), so TestClock drives due times and leases. Every write that may make work due
// notifies the lane's workers; inside a transaction the notification is sent at commit, or never.
import { randomUUID } from "node:crypto"
import { SqlClient, type Statement } from "@effect/sql"
import { Clock, type Duration, Effect, Layer, Option } from "effect"
import { type Job, JobQueue, type Lane } from "../../domain/ports/job-queue.ts"
import { JOBS_CHANNEL, makeJobWakeups } from "./pg-job-wakeups.ts"
import { fromBigint, fromBigintOrNull, jsonText } from "./pg-values.ts"

interface JobRow {
  readonly id: string
  readonly lane: Lane
  readonly kind: string
  readonly payload: unknown
  readonly run_at: string
  readonly attempts: number
  readonly status: Job["status"]
  readonly locked_until: string | null
  readonly dedupe_key: string | null
  readonly last_error: string | null
}

const toJob = (row: JobRow): Job => ({
  id: row.id,
  lane: row.lane,
  kind: row.kind,
  payload: row.payload,
  runAt: fromBigint(row.run_at),
  attempts: row.attempts,
  status: row.status,
  lockedUntil: fromBigintOrNull(row.locked_until),
  dedupeKey: row.dedupe_key,
  lastError: row.last_error
})

const oneJob = (rows: ReadonlyArray<JobRow>) => Option.map(Option.fromNullable(rows[0]), toJob)

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

      const update = (id: string, set: Statement.Fragment, where: Statement.Fragment = sql`TRUE`) =>
        sql`UPDATE jobs SET ${set} WHERE id = ${id} AND ${where}`.pipe(Effect.asVoid, Effect.orDie)
      /** As `update`, and notifies the lane of the job if it changed: it may be due now. */
      const updateAndWake = (id: string, set: Statement.Fragment, where: Statement.Fragment = sql`TRUE`) =>
        sql`WITH changed AS (UPDATE jobs SET ${set} WHERE id = ${id} AND ${where} RETURNING lane)
          SELECT pg_notify(${JOBS_CHANNEL}, lane) FROM changed`.pipe(Effect.asVoid, Effect.orDie)

      return JobQueue.of({
        enqueue: (input) =>
          Effect.suspend(() =>
            sql<JobRow>`WITH added AS (
              INSERT INTO jobs (id, lane, kind, payload, run_at, attempts, status, dedupe_key)
              VALUES (${randomUUID()}, ${input.lane}, ${input.kind}, ${jsonText(input.payload)}, ${input.runAt}, 0,
                'queued', ${input.dedupeKey})
              ON CONFLICT (dedupe_key) DO NOTHING
              RETURNING *
            )
            SELECT added.*, pg_notify(${JOBS_CHANNEL}, lane) FROM added`
          ).pipe(
            Effect.map(oneJob),
            Effect.orDie,
            Effect.withSpan("PgJobQueue.enqueue")
          ),
        claim: (lane, leaseMs) =>
          Clock.currentTimeMillis.pipe(
            Effect.flatMap((now) =>
              // Two index scans (jobs_due, jobs_leased) instead of one OR that scans the table.
              sql<JobRow>`WITH queued AS (
                  SELECT id, run_at, seq FROM jobs
                  WHERE lane = ${lane} AND status = 'queued' AND run_at <= ${now}
                  ORDER BY run_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED
                ), leased AS (
                  SELECT id, run_at, seq FROM jobs
                  WHERE lane = ${lane} AND status = 'running' AND locked_until < ${now}
                  ORDER BY locked_until LIMIT 1 FOR UPDATE SKIP LOCKED
                ), due AS (
                  SELECT id FROM (SELECT * FROM queued UNION ALL SELECT * FROM leased) AS candidates
                  ORDER BY run_at, seq LIMIT 1
                )
                UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, locked_until = ${now + leaseMs}
                FROM due
                WHERE jobs.id = due.id
                RETURNING jobs.*`
            ),
            Effect.map(oneJob),
            Effect.orDie,
            Effect.withSpan("PgJobQueue.claim")
          ),
        extendLease: (id, leaseMs) =>
          Clock.currentTimeMillis.pipe(
            Effect.flatMap((now) => update(id, sql`locked_until = ${now + leaseMs}`, sql`status = 'running'`)),
            Effect.withSpan("PgJobQueue.extendLease")
          ),
        complete: (id) =>
          update(id, sql`status = 'done', locked_until = NULL`).pipe(Effect.withSpan("PgJobQueue.complete")),
        retry: (id, runAt, error) =>
          updateAndWake(id, sql`status = 'queued', run_at = ${runAt}, locked_until = NULL, last_error = ${error}`).pipe(
            Effect.withSpan("PgJobQueue.retry")
          ),
        reschedule: (id, runAt, note) =>
          updateAndWake(
            id,
            sql`status = 'queued', run_at = ${runAt}, attempts = 0, locked_until = NULL, last_error = ${note}`
          ).pipe(Effect.withSpan("PgJobQueue.reschedule")),
        kill: (id, error) =>
          update(id, sql`status = 'dead', locked_until = NULL, last_error = ${error}`).pipe(
            Effect.withSpan("PgJobQueue.kill")
          ),
        cancel: (dedupeKey, reason) =>
          sql`UPDATE jobs SET status = 'cancelled', locked_until = NULL, last_error = ${reason}
            WHERE dedupe_key = ${dedupeKey} AND status IN ('queued', 'running')`.pipe(
            Effect.asVoid,
            Effect.orDie,
            Effect.withSpan("PgJobQueue.cancel")
          ),
        // The interrupted claim is not an attempt.
        release: (id) =>
          Clock.currentTimeMillis.pipe(
            Effect.flatMap((now) =>
              updateAndWake(
                id,
                sql`status = 'queued', run_at = ${now}, locked_until = NULL, attempts = GREATEST(0, attempts - 1)`,
                sql`status = 'running'`
              )
            ),
            Effect.withSpan("PgJobQueue.release")
          ),
        waitForWork: (lane, maxWait) => wakeups.wait(lane, maxWait).pipe(Effect.withSpan("PgJobQueue.waitForWork")),
        get: (id) =>
          sql<JobRow>`SELECT * FROM jobs WHERE id = ${id}`.pipe(
            Effect.map(oneJob),
            Effect.orDie,
            Effect.withSpan("PgJobQueue.get")
          ),
        // A running job's lease is expired once locked_until < now, so it is claimable from locked_until + 1.
        nextRunAt: (lane) =>
          sql<{ readonly next: string | null }>`SELECT MIN(CASE WHEN status = 'queued' THEN run_at
              ELSE locked_until + 1 END) AS next
            FROM jobs
            WHERE lane = ${lane} AND (status = 'queued' OR (status = 'running' AND locked_until IS NOT NULL))`.pipe(
            Effect.map((rows) => Option.fromNullable(rows[0]?.next ?? null).pipe(Option.map(fromBigint))),
            Effect.orDie,
            Effect.withSpan("PgJobQueue.nextRunAt")
          )
      })
    })
  )
