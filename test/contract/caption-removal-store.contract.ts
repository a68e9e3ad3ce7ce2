// What every CaptionRemovalStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Deferred, Effect, Fiber, type Layer, Option } from "effect"
import type { CaptionRemovalRecord } from "../../domain/caption-removal.ts"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import { aCaptionRemoval } from "./fixtures.ts"

/** Every field set, none at its initial value: numbers that JSON and double precision must keep exactly. */
const finished = (removal: CaptionRemovalRecord): CaptionRemovalRecord => ({
  ...removal,
  status: "completed",
  step: "completed",
  updatedAt: "2025-01-02T03:05:00.123Z",
  sourceUrl: null,
  sourceFileId: randomUUID(),
  resultFileId: randomUUID(),
  webhookUrl: "https://hooks.example.com/other?token=2",
  options: { target: "captions", region: { x: 0, y: 400, width: 360, height: 160 } },
  durationSeconds: 4.966667,
  width: 360,
  height: 640,
  regions: [
    { kind: "caption", box: { x: 24, y: 480, width: 312, height: 48 }, startSeconds: 0.5, endSeconds: 2.25, score: 0.93125 },
    { kind: "watermark", box: { x: 280, y: 16, width: 64, height: 24 }, startSeconds: 0, endSeconds: 4.966667, score: 0.8 }
  ],
  textRemainingShare: 0.1,
  creditsCharged: 12,
  refunded: true,
  refundedCredits: 8,
  error: "could not wipe: the encoder stopped"
})

export const captionRemovalStoreContract = (
  name: string,
  stores: Layer.Layer<CaptionRemovalStore | Transactor, unknown>
): void =>
  layer(stores)(`CaptionRemovalStore (${name})`, (it) => {
    it.effect("gets a removal only within its own workspace", () =>
      Effect.gen(function*() {
        const store = yield* CaptionRemovalStore
        const removal = aCaptionRemoval(randomUUID())
        yield* store.insert(removal)
        expect(Option.getOrThrow(yield* store.get(removal.workspaceId, removal.id))).toEqual(removal)
        expect(Option.isNone(yield* store.get(randomUUID(), removal.id))).toBe(true)
        expect(Option.getOrThrow(yield* store.getById(removal.id))).toEqual(removal)
        expect(Option.isNone(yield* store.getById(randomUUID()))).toBe(true)
        expect(Option.getOrThrow(yield* store.getForUpdate(removal.id))).toEqual(removal)
        expect(Option.isNone(yield* store.getForUpdate(randomUUID()))).toBe(true)
      }))

    it.effect("keeps every field of an inserted removal, regions included", () =>
      Effect.gen(function*() {
        const store = yield* CaptionRemovalStore
        const removal = finished(aCaptionRemoval(randomUUID()))
        yield* store.insert(removal)
        expect(Option.getOrThrow(yield* store.get(removal.workspaceId, removal.id))).toEqual(removal)
      }))

    it.effect("updates every field of a removal, and only that removal", () =>
      Effect.gen(function*() {
        const store = yield* CaptionRemovalStore
        const removal = aCaptionRemoval(randomUUID(), { sourceUrl: null, sourceFileId: randomUUID(), webhookUrl: null })
        const neighbour = aCaptionRemoval(removal.workspaceId)
        yield* store.insert(removal)
        yield* store.insert(neighbour)
        const changed = finished(removal)
        yield* store.update(changed)
        expect(Option.getOrThrow(yield* store.getById(removal.id))).toEqual(changed)
        expect(Option.getOrThrow(yield* store.getById(neighbour.id))).toEqual(neighbour)
        // And back: the fields set above can be cleared again.
        yield* store.update(removal)
        expect(Option.getOrThrow(yield* store.getById(removal.id))).toEqual(removal)
      }))

    it.effect("keeps regions detected as none apart from regions not yet detected", () =>
      Effect.gen(function*() {
        const store = yield* CaptionRemovalStore
        const removal = aCaptionRemoval(randomUUID(), { regions: [] })
        yield* store.insert(removal)
        expect(Option.getOrThrow(yield* store.getById(removal.id)).regions).toEqual([])
        yield* store.update({ ...removal, regions: null })
        expect(Option.getOrThrow(yield* store.getById(removal.id)).regions).toBeNull()
      }))

    it.effect("holds a removal read for update until its transaction ends: a second such read sees the first's write", () =>
      Effect.gen(function*() {
        const { atomically } = yield* Transactor
        const store = yield* CaptionRemovalStore
        const removal = aCaptionRemoval(randomUUID())
        yield* store.insert(removal)
        const holding = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const first = yield* Effect.fork(atomically(Effect.gen(function*() {
          const held = Option.getOrThrow(yield* store.getForUpdate(removal.id))
          yield* Deferred.succeed(holding, undefined)
          yield* Deferred.await(release)
          yield* store.update({ ...held, step: "detecting", creditsCharged: held.creditsCharged + 2 })
        })))
        yield* Deferred.await(holding)
        const second = yield* Effect.fork(atomically(Effect.gen(function*() {
          const held = Option.getOrThrow(yield* store.getForUpdate(removal.id))
          yield* store.update({ ...held, creditsCharged: held.creditsCharged + 8 })
          return held
        })))
        // Real time for the second read to reach the store: unheld, it would be back long before.
        yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 200)))
        expect(Option.isNone(yield* Fiber.poll(second))).toBe(true)
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(first)
        expect((yield* Fiber.join(second)).step).toBe("detecting")
        // Neither writer's charge was lost.
        expect(Option.getOrThrow(yield* store.getById(removal.id)).creditsCharged).toBe(10)
      }))
  })
