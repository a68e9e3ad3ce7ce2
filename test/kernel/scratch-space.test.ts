// Scratch a killed worker left behind: the job's next claim clears it before running the job, and a
// starting worker clears that of finished and unknown jobs and old request scratch; the scratch of a
// job another worker holds a live lease on is never touched.
import { afterAll, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, Ref, TestClock } from "effect"
import { existsSync, rmSync } from "node:fs"
import { mkdir, utimes, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { JobQueue, type Lane } from "../../domain/ports/job-queue.ts"
import { Done } from "../../src/kernel/job.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { clearAbandonedScratch } from "../../src/kernel/scratch-space.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { withScratchDir } from "../../src/shared/media/scratch.ts"

const workDir = join(tmpdir(), `reelwright-scratch-space-${process.pid}`)
afterAll(() => rmSync(workDir, { recursive: true, force: true }))

const LEASE_MS = 60_000
const DAY_MS = 24 * 60 * 60 * 1000

/** What a worker killed in the middle of the job leaves: a scratch folder with a source and a partial mp4. */
const leaveScratch = (folder: string) =>
  Effect.promise(async () => {
    const dir = join(workDir, folder, "render-abc123")
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, "source"), "source bytes")
    await writeFile(join(dir, "partial.mp4"), "half a video")
    return dir
  })

const queued = (kind: string, lane: Lane = "media") =>
  Effect.flatMap(JobQueue, (queue) => queue.enqueue({ lane, kind, payload: {}, runAt: 0, dedupeKey: null })).pipe(
    Effect.map(Option.getOrThrow)
  )

/** Claims the oldest due job of the lane as another worker would, returning its id. */
const claimedElsewhere = (lane: Lane = "media") =>
  Effect.flatMap(JobQueue, (queue) => queue.claim(lane, LEASE_MS, "another-worker:1")).pipe(Effect.map((job) => Option.getOrThrow(job).id))

layer(Layer.merge(MemoryStoresLive, ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir })))("scratch space", (it) => {
  it.effect("a job claimed again after its worker died starts with its old scratch gone and leaves none; a live job's stays", () =>
    Effect.gen(function*() {
      const seen = yield* Ref.make<Array<{ leftoverThere: boolean; dir: string }>>([])
      const runner = makeJobRunner([{
        kind: "test.media",
        lane: "media",
        run: (job) =>
          withScratchDir("render", (dir) =>
            Effect.gen(function*() {
              yield* Effect.promise(() => writeFile(join(dir, "partial.mp4"), "this run's video"))
              const leftoverThere = existsSync(join(workDir, "jobs", job.id, "render-abc123"))
              yield* Ref.update(seen, (s) => [...s, { leftoverThere, dir }])
              return Done
            })
          ),
        onDead: () => Effect.void
      }], { leaseMs: LEASE_MS })

      const crashed = yield* queued("test.media")
      expect(yield* claimedElsewhere()).toBe(crashed.id)
      const leftover = yield* leaveScratch(`jobs/${crashed.id}`)
      yield* TestClock.adjust(LEASE_MS + 1)
      // Another worker's job, running under a live lease (in the other lane, so the runner passes it by).
      const live = yield* queued("test.other", "webhooks")
      expect(yield* claimedElsewhere("webhooks")).toBe(live.id)
      const liveScratch = yield* leaveScratch(`jobs/${live.id}`)

      // The first worker is gone: its lease lapsed, and this runner claims the job again.
      expect(yield* runner.runOnce("media")).toBe(true)
      const [run] = yield* Ref.get(seen)
      expect(run).toMatchObject({ leftoverThere: false })
      expect(run!.dir.startsWith(join(workDir, "jobs", crashed.id))).toBe(true)
      expect(existsSync(leftover)).toBe(false)
      expect(existsSync(join(workDir, "jobs", crashed.id))).toBe(false)
      expect(Option.map(yield* (yield* JobQueue).get(crashed.id), (j) => j.status)).toEqual(Option.some("done"))
      expect(existsSync(join(liveScratch, "partial.mp4"))).toBe(true)
    }))

  it.effect("a starting worker clears the scratch of finished and unknown jobs and old requests, never a running job's", () =>
    Effect.gen(function*() {
      const now = Date.now()
      yield* TestClock.setTime(now)
      const queue = yield* JobQueue
      const finished = yield* queued("test.finished")
      expect(yield* claimedElsewhere()).toBe(finished.id)
      yield* queue.complete(finished.id)
      // Running, under a live lease or one that lapsed: whoever claims it next clears its scratch.
      const running = yield* queued("test.running")
      expect(yield* claimedElsewhere()).toBe(running.id)

      const finishedScratch = yield* leaveScratch(`jobs/${finished.id}`)
      const unknownScratch = yield* leaveScratch("jobs/job-the-store-forgot")
      const runningScratch = yield* leaveScratch(`jobs/${running.id}`)
      const freshRequest = yield* leaveScratch("requests/upload-fresh")
      // A request's scratch from two days ago, and a preview's left directly in the work folder.
      const twoDaysAgo = new Date(now - 2 * DAY_MS)
      for (const folder of ["requests/upload-old", "preview-old"]) {
        yield* leaveScratch(folder)
        yield* Effect.promise(() => utimes(join(workDir, folder), twoDaysAgo, twoDaysAgo))
      }

      yield* clearAbandonedScratch

      expect(existsSync(finishedScratch)).toBe(false)
      expect(existsSync(unknownScratch)).toBe(false)
      expect(existsSync(join(workDir, "requests/upload-old"))).toBe(false)
      expect(existsSync(join(workDir, "preview-old"))).toBe(false)
      expect(existsSync(join(runningScratch, "partial.mp4"))).toBe(true)
      expect(existsSync(join(freshRequest, "partial.mp4"))).toBe(true)
    }))
})
