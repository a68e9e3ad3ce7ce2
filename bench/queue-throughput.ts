// How fast the PostgreSQL job queue hands out work: 10,000 queued jobs claimed and completed by 4
// concurrent workers, until none is left.
//   ours: 4 fibers over PgJobQueueLive (a pool of 4 connections): claim -> complete, the adapter's statements
//   bare: 4 node-postgres clients sending the same claim (UPDATE ... FOR UPDATE SKIP LOCKED) and complete SQL
// Both start from the same 10,000 rows, inserted in one statement before the clock starts. The runs
// alternate (BENCH_RUNS pairs, default 1) on the same scratch database; each figure is their median.
import { loadavg } from "node:os"
import { Effect, Layer, Option, Redacted } from "effect"
import { PgJobQueueLive } from "../adapters/postgres/pg-job-queue.ts"
import { PgClientLive } from "../adapters/postgres/pg-layer.ts"
import { JobQueue } from "../domain/ports/job-queue.ts"
import { type Figure, isEntryPoint, median, report } from "./figures.ts"
import type pg from "pg"
import { connectClient } from "./node-postgres.ts"
import { createScratchDatabase } from "./scratch-database.ts"

const BENCH = "queue-throughput"
const JOBS = 10_000
const WORKERS = 4
const LEASE_MS = 60_000

/** Fresh jobs with the columns PgJobQueue.enqueue writes, all due. */
const refill = async (admin: pg.Client): Promise<void> => {
  await admin.query("TRUNCATE jobs")
  await admin.query(
    `INSERT INTO jobs (id, lane, kind, payload, run_at, attempts, status, dedupe_key)
      SELECT gen_random_uuid()::text, 'media', 'bench.noop', jsonb_build_object('n', n), $1, 0, 'queued', 'bench:' || n
      FROM generate_series(1, $2::int) AS n`,
    [Date.now() - 1000, JOBS]
  )
  await admin.query("VACUUM ANALYZE jobs")
}

const doneCount = async (admin: pg.Client): Promise<number> => {
  const { rows } = await admin.query<{ done: string }>("SELECT count(*) AS done FROM jobs WHERE status = 'done'")
  return Number(rows[0]?.done ?? 0)
}

/** The adapter's claim, word for word (pg-job-queue.ts), with its parameters numbered. */
const CLAIM = `WITH queued AS (
    SELECT id, run_at, seq FROM jobs
    WHERE lane = $2 AND status = 'queued' AND run_at <= $3
    ORDER BY run_at, seq LIMIT 1 FOR UPDATE SKIP LOCKED
  ), leased AS (
    SELECT id, run_at, seq FROM jobs
    WHERE lane = $2 AND status = 'running' AND locked_until < $4
    ORDER BY locked_until LIMIT 1 FOR UPDATE SKIP LOCKED
  ), due AS (
    SELECT id FROM (SELECT * FROM queued UNION ALL SELECT * FROM leased) AS candidates
    ORDER BY run_at, seq LIMIT 1
  )
  UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, locked_until = $1
  FROM due
  WHERE jobs.id = due.id
  RETURNING jobs.*`
const COMPLETE = "UPDATE jobs SET status = 'done', locked_until = NULL WHERE id = $1 AND TRUE"

/** Seconds for 4 bare clients to empty the queue. */
const bareRun = async (clients: ReadonlyArray<pg.Client>): Promise<number> => {
  const worker = async (client: pg.Client) => {
    for (;;) {
      const now = Date.now()
      const { rows } = await client.query<{ id: string }>(CLAIM, [now + LEASE_MS, "media", now, now])
      const job = rows[0]
      if (job === undefined) return
      await client.query(COMPLETE, [job.id])
    }
  }
  const started = performance.now()
  await Promise.all(clients.map(worker))
  return (performance.now() - started) / 1000
}

/** Seconds for 4 fibers to empty the queue through the adapter. */
const oursRun = Effect.gen(function*() {
  const queue = yield* JobQueue
  const worker = queue.claim("media", LEASE_MS, "bench").pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.succeed(false),
      onSome: (job) => Effect.as(queue.complete(job.id), true)
    })),
    Effect.repeat({ while: (claimed) => claimed })
  )
  const started = performance.now()
  yield* Effect.all(Array.from({ length: WORKERS }, () => worker), { concurrency: "unbounded", discard: true })
  return (performance.now() - started) / 1000
})

/** Opens every connection of the pool before the clock starts, as the bare clients are. */
const warmPool = Effect.gen(function*() {
  const queue = yield* JobQueue
  yield* Effect.all(Array.from({ length: WORKERS }, () => queue.nextRunAt("media")), { concurrency: "unbounded", discard: true })
})

export const queueThroughput = async (): Promise<ReadonlyArray<Figure>> => {
  const requested = Number(process.env["BENCH_RUNS"] ?? "")
  const runs = Number.isInteger(requested) && requested > 0 ? requested : 1
  const database = await createScratchDatabase(BENCH)
  try {
    const admin = await connectClient(database.url)
    const clients = await Promise.all(Array.from({ length: WORKERS }, () => connectClient(database.url)))
    const bare: Array<number> = []
    const ours: Array<number> = []
    const queueLayer = PgJobQueueLive().pipe(Layer.provide(PgClientLive(Redacted.make(database.url), WORKERS)))
    try {
      await Effect.runPromise(
        Effect.gen(function*() {
          yield* warmPool
          for (let i = 1; i <= runs; i++) {
            yield* Effect.promise(() => refill(admin))
            bare.push(yield* Effect.promise(() => bareRun(clients)))
            const bareDone = yield* Effect.promise(() => doneCount(admin))
            yield* Effect.promise(() => refill(admin))
            ours.push(yield* oursRun)
            const oursDone = yield* Effect.promise(() => doneCount(admin))
            if (bareDone !== JOBS || oursDone !== JOBS) {
              return yield* Effect.dieMessage(`jobs done: bare ${bareDone}, ours ${oursDone}, of ${JOBS}`)
            }
            console.log(`${BENCH}: run ${i}/${runs}  bare ${(JOBS / bare.at(-1)!).toFixed(0)} jobs/s, ours ${(JOBS / ours.at(-1)!).toFixed(0)} jobs/s`)
          }
        }).pipe(Effect.provide(queueLayer))
      )
    } finally {
      await Promise.all([admin, ...clients].map((c) => c.end()))
    }
    const oursRate = JOBS / median(ours)
    const bareRate = JOBS / median(bare)
    const ratio = oursRate / bareRate
    const note = runs > 1 ? `median of ${runs}` : "1 run"
    return [
      { bench: BENCH, name: `ours: PgJobQueue, ${WORKERS} fibers`, value: oursRate, unit: "jobs/s", note },
      { bench: BENCH, name: `bare SQL through pg, ${WORKERS} clients`, value: bareRate, unit: "jobs/s", note },
      {
        bench: BENCH,
        name: "jobs/s ours/bare",
        value: ratio,
        unit: "x",
        note: `${JOBS} jobs claimed and completed; load average ${loadavg()[0]!.toFixed(2)}`
      }
    ]
  } finally {
    await database.drop()
  }
}

if (isEntryPoint(import.meta.url)) await report(await queueThroughput())
