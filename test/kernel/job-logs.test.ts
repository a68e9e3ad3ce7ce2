// What the job runner logs: every line of a job with the job's ids and the records its payload names,
// an error for a job that goes dead (returned Dead, or crashed too often), and at shutdown how many
// running jobs were handed back.
import { expect, layer } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, Logger, Option, TestClock } from "effect"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Done } from "../../src/kernel/job.ts"
import { makeJobRunner, MAX_CRASHES } from "../../src/kernel/job-runner.ts"
import { jsonLogger } from "../../src/kernel/json-logger.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"

const captured = () => {
  const lines: Array<Record<string, unknown>> = []
  const logger = Logger.replace(
    Logger.defaultLogger,
    Logger.map(jsonLogger, (line) => {
      lines.push(JSON.parse(line) as Record<string, unknown>)
    })
  )
  return { lines, logger }
}

const stores = Layer.merge(
  MemoryStoresLive,
  ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: join(tmpdir(), `reelwright-job-logs-${process.pid}`) })
)

layer(stores)("job runner logs", (it) => {
  it.effect("names the job and its records on each line, and logs a job that goes dead as an error", () => {
    const { lines, logger } = captured()
    return Effect.gen(function*() {
      const runner = makeJobRunner([
        {
          kind: "test.gone",
          lane: "media",
          run: () => Effect.logInfo("looking").pipe(Effect.as({ _tag: "Dead" as const, error: "the record is gone" })),
          onDead: () => Effect.void
        },
        { kind: "test.crash", lane: "media", run: () => Effect.dieMessage("disk on fire"), onDead: () => Effect.void }
      ])
      const queue = yield* JobQueue
      const gone = Option.getOrThrow(
        yield* queue.enqueue({ lane: "media", kind: "test.gone", payload: { videoId: "v-1", note: "x" }, runAt: 0, dedupeKey: null, workspaceId: "w-1" })
      )
      yield* runner.drain("media")
      const identity = { jobId: gone.id, kind: "test.gone", attempt: 1, videoId: "v-1", workspaceId: "w-1" }
      expect(lines.find((l) => l["message"] === "looking")).toMatchObject({ level: "info", ...identity })
      expect(lines.find((l) => l["message"] === "job dead")).toMatchObject({
        level: "error",
        ...identity,
        error: "the record is gone",
        durationMs: expect.any(Number)
      })
      expect(lines.find((l) => l["message"] === "looking")).not.toHaveProperty("note")

      const crash = Option.getOrThrow(yield* queue.enqueue({ lane: "media", kind: "test.crash", payload: {}, runAt: 0, dedupeKey: null }))
      for (let attempt = 1; attempt <= MAX_CRASHES; attempt++) {
        yield* runner.drain("media")
        yield* TestClock.adjust("1 minute")
      }
      const crashLines = lines.filter((l) => l["jobId"] === crash.id)
      expect(crashLines.filter((l) => l["message"] === "job crashed").map((l) => [l["level"], l["attempt"]]))
        .toEqual([["error", 1], ["error", 2], ["error", 3]])
      expect(crashLines.filter((l) => l["message"] === "job dead")).toEqual([
        expect.objectContaining({ level: "error", attempt: MAX_CRASHES, error: expect.stringContaining("disk on fire") })
      ])
    }).pipe(Effect.provide(logger))
  })

  it.effect("says at shutdown how many running jobs were handed back", () => {
    const { lines, logger } = captured()
    return Effect.gen(function*() {
      const runner = makeJobRunner([{ kind: "test.slow", lane: "media", run: () => Effect.as(Effect.sleep("1 minute"), Done), onDead: () => Effect.void }])
      const queue = yield* JobQueue
      yield* queue.enqueue({ lane: "media", kind: "test.slow", payload: {}, runAt: yield* Clock.currentTimeMillis, dedupeKey: null })
      const worker = yield* Effect.fork(runner.run({ pollInterval: "1 second", concurrency: { media: 1, webhooks: 0 }, grace: "2 seconds" }))
      yield* TestClock.adjust("1 second")
      const stopping = yield* Effect.fork(Fiber.interrupt(worker))
      while (Option.isNone(yield* Fiber.poll(stopping))) yield* TestClock.adjust("100 millis")
      expect(lines.find((l) => l["message"] === "worker stopped")).toMatchObject({ level: "info", jobsHandedBack: 1 })
    }).pipe(Effect.provide(logger))
  })
})
