// The job runner's batches: a lane whose every handler runs batches is claimed many jobs at a time, each
// job still ending as its own outcome says, and the lane's concurrency still bounds the jobs' slow parts.
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Fiber, FiberRef, Layer, Option, Ref, Schema, TestClock } from "effect"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { Done, handleBatch, type JobOutcome, jobType } from "../../src/kernel/job.ts"
import { makeJobRunner, MAX_CRASHES } from "../../src/kernel/job-runner.ts"
import { CurrentJobId } from "../../src/kernel/scratch-space.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { aWorkspace } from "../contract/fixtures.ts"

const Numbered = jobType({ kind: "test.numbered", lane: "webhooks", payload: Schema.Struct({ n: Schema.Number }) })

const TestLayer = Layer.merge(
  MemoryStoresLive,
  ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: join(tmpdir(), `reelwright-batch-jobs-${process.pid}`) })
)

/** Queues the payloads as jobs of the numbered kind, due now; their ids in order. */
const enqueueAll = (payloads: ReadonlyArray<unknown>, workspaceId?: string) =>
  Effect.gen(function*() {
    const queue = yield* JobQueue
    const now = yield* Clock.currentTimeMillis
    return yield* Effect.forEach(payloads, (payload) =>
      Effect.map(
        queue.enqueue({ lane: "webhooks", kind: Numbered.kind, payload, runAt: now, dedupeKey: null, ...(workspaceId === undefined ? {} : { workspaceId }) }),
        (job) => Option.getOrThrow(job).id
      ))
  })

const stateOf = (id: string) => Effect.flatMap(JobQueue, (queue) => Effect.map(queue.get(id), (job) => Option.getOrThrow(job)))

layer(TestLayer)("job runner batches", (it) => {
  it.effect("claims a lane of batch handlers in batches and ends each job as its own outcome says", () =>
    Effect.gen(function*() {
      const start = yield* Clock.currentTimeMillis
      const batches = yield* Ref.make<Array<ReadonlyArray<number>>>([])
      const outcomeOf = (n: number): JobOutcome =>
        n % 3 === 0 ? Done : n % 3 === 1 ? { _tag: "RetryAt", at: start + 60_000, error: `later ${n}` } : { _tag: "Dead", error: `bad ${n}` }
      const handler = handleBatch(Numbered, {
        runBatch: (items, { asJob }) =>
          Effect.zipRight(
            Ref.update(batches, (all) => [...all, items.map(({ payload }) => payload.n)]),
            // Each job's part runs as that job: its id is the one its tools and logs see.
            Effect.forEach(items, ({ job, payload }) =>
              asJob(job)(Effect.map(FiberRef.get(CurrentJobId), (id) => (id === job.id ? outcomeOf(payload.n) : Done))))
          ),
        onDead: () => Effect.void
      })
      const workspace = aWorkspace()
      yield* (yield* WorkspaceStore).insert(workspace)
      const ids = yield* enqueueAll(Array.from({ length: 40 }, (_, n) => ({ n })))
      const [undecodable] = yield* enqueueAll([{ n: "forty" }])
      const [capped] = yield* enqueueAll([{ n: 99 }], workspace.id)
      yield* makeJobRunner([handler], { batchSize: 16 }).drain("webhooks")

      const seen = yield* Ref.get(batches)
      expect(seen.map((batch) => batch.length)).toEqual([16, 16, 8, 1])
      expect(seen.flat().sort((a, b) => a - b)).toEqual([...Array.from({ length: 40 }, (_, n) => n), 99])
      // A workspace's job is never taken in a batch: it ran alone, after the batches.
      expect(seen.at(-1)).toEqual([99])
      for (const [n, id] of ids.entries()) {
        const job = yield* stateOf(id)
        const outcome = outcomeOf(n)
        if (outcome._tag === "Done") expect([job.status, job.attempts]).toEqual(["done", 1])
        else if (outcome._tag === "RetryAt") expect([job.status, job.runAt, job.attempts, job.lastError]).toEqual(["queued", start + 60_000, 0, `later ${n}`])
        else expect([job.status, job.lastError]).toEqual(["dead", `bad ${n}`])
      }
      expect(yield* stateOf(undecodable!)).toMatchObject({ status: "dead", lastError: `the payload of this ${Numbered.kind} job does not decode` })
      expect((yield* stateOf(capped!)).status).toBe("done")
      yield* Effect.forEach(ids, (id) => Effect.flatMap(JobQueue, (queue) => queue.kill(id, "test over")))
    }))

  it.effect("takes a crash of a batch as a crash of each of its jobs: retried with backoff, then dead, each cleaned up once", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const dead = yield* Ref.make<Array<number>>([])
      const handler = handleBatch(Numbered, {
        runBatch: () => Effect.zipRight(Ref.update(runs, (n) => n + 1), Effect.dieMessage("receiver table corrupt")),
        onDead: ({ n }) => Ref.update(dead, (all) => [...all, n])
      })
      const runner = makeJobRunner([handler])
      const ids = yield* enqueueAll([{ n: 1 }, { n: 2 }, { n: 3 }])
      yield* runner.drain("webhooks")
      for (const id of ids) {
        const job = yield* stateOf(id)
        expect([job.status, job.attempts]).toEqual(["queued", 1])
        expect(job.lastError).toContain("receiver table corrupt")
      }
      for (let attempt = 2; attempt <= MAX_CRASHES; attempt++) {
        yield* TestClock.adjust("1 minute")
        yield* runner.drain("webhooks")
      }
      expect(yield* Ref.get(runs)).toBe(MAX_CRASHES)
      expect((yield* Ref.get(dead)).sort()).toEqual([1, 2, 3])
      for (const id of ids) expect((yield* stateOf(id)).status).toBe("dead")
    }))

  it.effect("bounds the jobs' slow parts by the lane's concurrency, across the worker's batches", () =>
    Effect.gen(function*() {
      const inFlight = yield* Ref.make(0)
      const most = yield* Ref.make(0)
      const handler = handleBatch(Numbered, {
        runBatch: (items, { concurrency, inPlace }) =>
          Effect.forEach(items, () =>
            inPlace(
              Ref.updateAndGet(inFlight, (n) => n + 1).pipe(
                Effect.tap((n) => Ref.update(most, (m) => Math.max(m, n))),
                Effect.zipRight(Effect.sleep("1 second")),
                Effect.zipRight(Ref.update(inFlight, (n) => n - 1)),
                Effect.as(Done)
              )
            ), { concurrency }),
        onDead: () => Effect.void
      })
      const ids = yield* enqueueAll(Array.from({ length: 20 }, (_, n) => ({ n })))
      const worker = yield* Effect.fork(
        makeJobRunner([handler], { batchSize: 4 }).run({ pollInterval: "1 second", concurrency: { media: 0, webhooks: 3 }, grace: "1 second" })
      )
      for (let step = 0; step < 40; step++) yield* TestClock.adjust("250 millis")
      yield* Fiber.interrupt(worker)
      expect(yield* Ref.get(most)).toBe(3)
      for (const id of ids) expect((yield* stateOf(id)).status).toBe("done")
    }))
})
