// What every ClipsStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, type Layer, Option } from "effect"
import { type ClipsRecord, newClips } from "../../domain/clips.ts"
import { ClipsStore } from "../../domain/ports/clips-store.ts"
import { Transactor } from "../../domain/ports/transactor.ts"

const aClipsRecord = (workspaceId: string): ClipsRecord =>
  newClips({
    id: randomUUID(),
    workspaceId,
    source: { url: "https://media.example.com/talk.mp4?token=1" },
    webhookUrl: "https://hooks.example.com/clips?token=1",
    options: { count: 3, minSeconds: 15, maxSeconds: 60, reframe: null, templateId: null, render: null, language: null },
    at: "2025-01-02T03:04:05.678Z"
  })

/** Every field set, none at its initial value: numbers that JSON and double precision must keep exactly. */
const finished = (clips: ClipsRecord): ClipsRecord => ({
  ...clips,
  status: "completed",
  step: "completed",
  updatedAt: "2025-01-02T03:09:00.123Z",
  sourceFileId: randomUUID(),
  options: {
    count: 2,
    minSeconds: 20.5,
    maxSeconds: 90,
    reframe: { aspectRatio: "9:16", mode: "split" },
    templateId: -3,
    render: { format: "standard", frameRate: 60 },
    language: "en"
  },
  durationSeconds: 3599.966667,
  clips: [
    { startSeconds: 12.34, endSeconds: 70.001, score: 87, reasons: ["question and answer", "numbers"], firstLine: "Why do boats leave at six?", words: [{ text: "Why", start: 0.2, end: 0.41, confidence: 0.875 }], videoId: randomUUID() },
    { startSeconds: 301.5, endSeconds: 330.25, score: 40, reasons: [], firstLine: "The harbour opens early.", words: [{ text: "The", start: 0.2, end: 0.3, emphasis: true }], videoId: null }
  ],
  creditsCharged: 180,
  refunded: true,
  refundedCredits: 180,
  error: "the source has no speech"
})

export const clipsStoreContract = (name: string, stores: Layer.Layer<ClipsStore | Transactor, unknown>): void =>
  layer(stores)(`ClipsStore (${name})`, (it) => {
    it.effect("gets a record only within its own workspace", () =>
      Effect.gen(function*() {
        const store = yield* ClipsStore
        const clips = aClipsRecord(randomUUID())
        yield* store.insert(clips)
        expect(Option.getOrThrow(yield* store.get(clips.workspaceId, clips.id))).toEqual(clips)
        expect(Option.isNone(yield* store.get(randomUUID(), clips.id))).toBe(true)
        expect(Option.getOrThrow(yield* store.getById(clips.id))).toEqual(clips)
        expect(Option.isNone(yield* store.getById(randomUUID()))).toBe(true)
        expect(Option.getOrThrow(yield* store.getForUpdate(clips.id))).toEqual(clips)
      }))

    it.effect("finds the record by one of its clips' videos, only within its own workspace", () =>
      Effect.gen(function*() {
        const store = yield* ClipsStore
        const clips = finished(aClipsRecord(randomUUID()))
        const other = finished(aClipsRecord(clips.workspaceId))
        yield* store.insert(clips)
        yield* store.insert(other)
        const made = clips.clips![0]!.videoId!
        expect(Option.getOrThrow(yield* store.findByVideo(clips.workspaceId, made))).toEqual(clips)
        expect(Option.isNone(yield* store.findByVideo(randomUUID(), made))).toBe(true)
        // A video no clip made, and a clip whose video is not made yet.
        expect(Option.isNone(yield* store.findByVideo(clips.workspaceId, randomUUID()))).toBe(true)
        expect(Option.getOrThrow(yield* store.findByVideo(other.workspaceId, other.clips![0]!.videoId!)).id).toBe(other.id)
      }))

    it.effect("keeps every field of an inserted record, the options and clips included", () =>
      Effect.gen(function*() {
        const store = yield* ClipsStore
        const clips = finished(aClipsRecord(randomUUID()))
        yield* store.insert(clips)
        expect(Option.getOrThrow(yield* store.get(clips.workspaceId, clips.id))).toEqual(clips)
      }))

    it.effect("updates what the work changes, and only that record", () =>
      Effect.gen(function*() {
        const store = yield* ClipsStore
        const clips = aClipsRecord(randomUUID())
        const neighbour = aClipsRecord(clips.workspaceId)
        yield* store.insert(clips)
        yield* store.insert(neighbour)
        const changed = { ...finished(clips), options: clips.options }
        yield* store.update(changed)
        expect(Option.getOrThrow(yield* store.getById(clips.id))).toEqual(changed)
        expect(Option.getOrThrow(yield* store.getById(neighbour.id))).toEqual(neighbour)
        yield* store.update(clips)
        expect(Option.getOrThrow(yield* store.getById(clips.id))).toEqual(clips)
      }))

    it.effect("holds a record read for update until its transaction ends: a second such read sees the first's write", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const store = yield* ClipsStore
        const clips = aClipsRecord(randomUUID())
        yield* store.insert(clips)
        const holding = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(atomically(Effect.gen(function*() {
          const held = Option.getOrThrow(yield* store.getForUpdate(clips.id))
          yield* Deferred.succeed(holding, undefined)
          yield* Deferred.await(release)
          yield* store.update({ ...held, step: "transcribing", creditsCharged: held.creditsCharged + 2 })
        })))
        yield* Deferred.await(holding)
        const second = yield* Effect.fork(atomically(Effect.gen(function*() {
          const held = Option.getOrThrow(yield* store.getForUpdate(clips.id))
          yield* store.update({ ...held, creditsCharged: held.creditsCharged + 1 })
          return held
        })))
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
        expect(Option.isNone(yield* Fiber.poll(second))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        expect((yield* Fiber.join(second)).step).toBe("transcribing")
        expect(Option.getOrThrow(yield* store.getById(clips.id)).creditsCharged).toBe(3)
      }))
  })
