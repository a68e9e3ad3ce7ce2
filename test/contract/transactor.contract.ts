// What every Transactor must do over the store adapters it is built with.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, type Layer, Option, Ref } from "effect"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import type { VideoRecord } from "../../domain/video.ts"
import { aVideo, anEntry } from "./fixtures.ts"

export const transactorContract = (
  name: string,
  stores: Layer.Layer<Transactor | VideoStore | JobQueue | Ledger, unknown>
): void =>
  layer(stores)(`Transactor (${name})`, (it) => {
    const isStored = (video: VideoRecord) => Effect.flatMap(VideoStore, (videos) => videos.getById(video.id)).pipe(
      Effect.map(Option.isSome)
    )

    /** Inserts the video and enqueues its job; returns the job's id. */
    const createVideo = (video: VideoRecord) =>
      Effect.gen(function*() {
        yield* (yield* VideoStore).insert(video)
        const job = yield* (yield* JobQueue).enqueue({
          lane: "media",
          kind: "caption.generate",
          payload: { videoId: video.id },
          runAt: 0,
          dedupeKey: `${video.id}:0`
        })
        return Option.getOrThrow(job).id
      })

    it.effect("commits the writes of every store together", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const video = aVideo(randomUUID())
        const jobId = yield* atomically(createVideo(video))
        expect(yield* isStored(video)).toBe(true)
        expect(Option.isSome(yield* (yield* JobQueue).get(jobId))).toBe(true)
      }))

    it.effect("undoes the writes of every store when the effect fails", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const ledger = yield* Ledger
        const video = aVideo(randomUUID())
        yield* ledger.post(anEntry(video.workspaceId, 100))
        const jobId = yield* Ref.make("")
        const error = yield* Effect.flip(atomically(Effect.gen(function*() {
          yield* Ref.set(jobId, yield* createVideo(video))
          yield* ledger.post(anEntry(video.workspaceId, -60))
          return yield* Effect.fail("render refused" as const)
        })))
        expect(error).toBe("render refused")
        expect(yield* isStored(video)).toBe(false)
        expect(Option.isNone(yield* (yield* JobQueue).get(yield* Ref.get(jobId)))).toBe(true)
        expect(yield* ledger.balance(video.workspaceId)).toBe(100)
        // The dedupe key was never taken.
        expect(yield* atomically(createVideo(video))).toBeTypeOf("string")
      }))

    it.effect("undoes the writes when the effect dies or is interrupted", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const died = aVideo(randomUUID())
        const exit = yield* Effect.exit(atomically(Effect.zipRight(createVideo(died), Effect.die("bug"))))
        expect(Exit.isFailure(exit)).toBe(true)
        expect(yield* isStored(died)).toBe(false)

        const interrupted = aVideo(randomUUID())
        const inserted = yield* Deferred.make<void>()
        const fiber = yield* Effect.fork(atomically(
          createVideo(interrupted).pipe(
            Effect.zipRight(Deferred.succeed(inserted, undefined)),
            Effect.zipRight(Effect.never)
          )
        ))
        yield* Deferred.await(inserted)
        yield* Fiber.interrupt(fiber)
        expect(yield* isStored(interrupted)).toBe(false)
      }))

    it.effect("never shows another fiber the writes of a transaction that rolls back", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const videos = yield* VideoStore
        const video = aVideo(randomUUID())
        const inserted = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const writer = yield* Effect.fork(atomically(Effect.gen(function*() {
          yield* videos.insert(video)
          yield* Deferred.succeed(inserted, undefined)
          yield* Deferred.await(release)
          return yield* Effect.fail("abort" as const)
        })))
        yield* Deferred.await(inserted)
        const reader = yield* Effect.fork(videos.getById(video.id))
        yield* Effect.yieldNow()
        yield* Deferred.succeed(release, undefined)
        expect(yield* Effect.flip(Fiber.join(writer))).toBe("abort")
        expect(Option.isNone(yield* Fiber.join(reader))).toBe(true)
      }))

    it.effect("joins nested transactions into the outer one", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const inner = aVideo(randomUUID())
        const outer = aVideo(randomUUID())
        yield* atomically(Effect.zipRight(atomically(createVideo(inner)), createVideo(outer)))
        expect(yield* isStored(inner)).toBe(true)
        expect(yield* isStored(outer)).toBe(true)

        const innerDone = aVideo(randomUUID())
        const outerFailed = yield* Effect.flip(atomically(Effect.gen(function*() {
          yield* atomically(createVideo(innerDone))
          return yield* Effect.fail("later" as const)
        })))
        expect(outerFailed).toBe("later")
        expect(yield* isStored(innerDone)).toBe(false)
      }))

    it.effect("undoes only a failed nested transaction when the outer one recovers", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const kept = aVideo(randomUUID())
        const dropped = aVideo(randomUUID())
        yield* atomically(Effect.gen(function*() {
          yield* createVideo(kept)
          yield* atomically(Effect.zipRight(createVideo(dropped), Effect.fail("nested"))).pipe(Effect.ignore)
        }))
        expect(yield* isStored(kept)).toBe(true)
        expect(yield* isStored(dropped)).toBe(false)
      }))

    it.effect("holds a video read for update until its transaction ends: a second such read sees the first's write", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const videos = yield* VideoStore
        const video = aVideo(randomUUID())
        yield* videos.insert(video)
        const holding = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(atomically(Effect.gen(function*() {
          const held = Option.getOrThrow(yield* videos.getForUpdate(video.id))
          yield* Deferred.succeed(holding, undefined)
          yield* Deferred.await(release)
          yield* videos.update({ ...held, step: "probing" })
        })))
        yield* Deferred.await(holding)
        const second = yield* Effect.fork(atomically(Effect.map(videos.getForUpdate(video.id), Option.getOrThrow)))
        // Real time for the second read to reach the store: unheld, it would be back long before.
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
        expect(Option.isNone(yield* Fiber.poll(second))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        expect((yield* Fiber.join(second)).step).toBe("probing")
      }))

    it.effect("applies writes made outside a transaction at once", () =>
      Effect.gen(function*() {
        const video = aVideo(randomUUID())
        yield* createVideo(video)
        expect(yield* isStored(video)).toBe(true)
      }))
  })
