// A job cancelled in the queue stops where it stands: the runner sees it within a check interval,
// interrupts the handler (its ffmpeg is killed), and neither retries it nor calls onDead.
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Layer, Option, Ref, TestClock } from "effect"
import { execFile } from "node:child_process"
import { randomUUID } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { spawnTool } from "../../adapters/media/ffmpeg-process.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Done } from "../../src/kernel/job.ts"
import { DEFAULT_CANCEL_CHECK_MS, makeJobRunner } from "../../src/kernel/job-runner.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"

/** Real time passes while TestClock stands still: for waiting on a child process. */
const realPause = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

/** Whether a process whose command line holds `marker` is running. */
const running = (marker: string) =>
  Effect.promise(() => new Promise<boolean>((resolve) => execFile("pgrep", ["-f", marker], (error) => resolve(error === null))))

const startedRunning = (marker: string) =>
  Effect.gen(function*() {
    for (let tries = 0; tries < 200; tries++) {
      if (yield* running(marker)) return
      yield* realPause(50)
    }
    return yield* Effect.dieMessage("ffmpeg never started")
  })

layer(Layer.merge(MemoryStoresLive, ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: join(tmpdir(), `reelwright-job-cancel-${process.pid}`) })))("cancelling a running job", (it) => {
  it.effect("interrupts the handler within a check interval and kills its ffmpeg; no retry, no onDead", () =>
    Effect.gen(function*() {
      const marker = `cancel-test-${randomUUID()}`
      const runs = yield* Ref.make(0)
      const dead = yield* Ref.make(0)
      const runner = makeJobRunner([{
        kind: "test.encode",
        lane: "media",
        // Ten minutes of silence at its own pace: it ends only when killed.
        run: () =>
          Ref.update(runs, (n) => n + 1).pipe(
            Effect.zipRight(spawnTool("ffmpeg", [
              "-nostdin", "-v", "error", "-re", "-f", "lavfi", "-i", "anullsrc", "-t", "600",
              "-metadata", `comment=${marker}`, "-f", "null", "-"
            ])),
            Effect.as(Done)
          ),
        onDead: () => Ref.update(dead, (n) => n + 1)
      }])
      const queue = yield* JobQueue
      const key = `encode:${marker}`
      const job = Option.getOrThrow(yield* queue.enqueue({ lane: "media", kind: "test.encode", payload: {}, runAt: 0, dedupeKey: key }))
      const draining = yield* Effect.fork(runner.drain("media"))
      yield* startedRunning(marker)

      yield* queue.cancel(key, "cancelled on request")
      yield* TestClock.adjust(DEFAULT_CANCEL_CHECK_MS)
      yield* Fiber.join(draining)
      expect(yield* running(marker)).toBe(false)
      expect(Option.map(yield* queue.get(job.id), (j) => [j.status, j.lastError])).toEqual(Option.some(["cancelled", "cancelled on request"]))

      yield* TestClock.adjust("1 hour")
      yield* runner.drain("media")
      expect([yield* Ref.get(runs), yield* Ref.get(dead)]).toEqual([1, 0])
    }))

  it.effect("does not retry a handler that crashed on what the cancel changed", () =>
    Effect.gen(function*() {
      const runs = yield* Ref.make(0)
      const dead = yield* Ref.make(0)
      const key = `crash:${randomUUID()}`
      const runner = makeJobRunner([{
        kind: "test.crash-after-cancel",
        lane: "webhooks",
        // The cancel lands between two of its steps, and the next step finds the record changed.
        run: () =>
          Ref.update(runs, (n) => n + 1).pipe(
            Effect.zipRight(Effect.flatMap(JobQueue, (q) => q.cancel(key, "cancelled on request"))),
            Effect.zipRight(Effect.dieMessage("the video is not processing"))
          ),
        onDead: () => Ref.update(dead, (n) => n + 1)
      }])
      const queue = yield* JobQueue
      const job = Option.getOrThrow(
        yield* queue.enqueue({ lane: "webhooks", kind: "test.crash-after-cancel", payload: {}, runAt: 0, dedupeKey: key })
      )
      yield* runner.drain("webhooks")
      yield* TestClock.adjust("1 hour")
      yield* runner.drain("webhooks")
      expect(Option.map(yield* queue.get(job.id), (j) => j.status)).toEqual(Option.some("cancelled"))
      expect([yield* Ref.get(runs), yield* Ref.get(dead)]).toEqual([1, 0])
    }))
})
