// What every IdempotencyStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { IdempotencyStore, type KeyClaim } from "../../domain/ports/idempotency-store.ts"

const aClaim = (changes: Partial<KeyClaim> = {}): KeyClaim => ({
  workspaceId: randomUUID(),
  key: "create-1",
  fingerprint: "ab".repeat(32),
  holder: randomUUID(),
  reservedAt: "2025-01-02T03:04:05.678Z",
  staleBefore: "2025-01-02T02:54:05.678Z",
  ...changes
})

export const idempotencyStoreContract = (name: string, stores: Layer.Layer<IdempotencyStore, unknown>): void =>
  layer(stores)(`IdempotencyStore (${name})`, (it) => {
    it.effect("reserves a key for its first claim, then keeps that holder's answer per workspace and key", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const { staleBefore: _, ...claim } = aClaim()
        const pending = { ...claim, response: Option.none() }
        expect(Option.isNone(yield* store.get(claim.workspaceId, claim.key))).toBe(true)
        expect(yield* store.reserve(aClaim(claim))).toEqual(pending)
        expect(Option.getOrThrow(yield* store.get(claim.workspaceId, claim.key))).toEqual(pending)

        const response = { id: randomUUID(), status: "processing", render: false, tags: ["a", 1, null] }
        yield* store.answer(claim.workspaceId, claim.key, claim.holder, response)
        const answered = { ...claim, response: Option.some(response) }
        expect(Option.getOrThrow(yield* store.get(claim.workspaceId, claim.key))).toEqual(answered)
        expect(Option.isNone(yield* store.get(randomUUID(), claim.key))).toBe(true)
        expect(Option.isNone(yield* store.get(claim.workspaceId, "create-2"))).toBe(true)
      }))

    it.effect("answers a later claim with the key as it stands: held by the first, then its answer", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const first = aClaim()
        yield* store.reserve(first)
        const later = aClaim({ workspaceId: first.workspaceId, fingerprint: "cd".repeat(32), reservedAt: "2025-01-02T03:04:06.000Z" })
        const held = yield* store.reserve(later)
        expect(held).toMatchObject({ holder: first.holder, fingerprint: first.fingerprint, reservedAt: first.reservedAt })
        expect(Option.isNone(held.response)).toBe(true)

        // Only the holder answers or releases.
        yield* store.answer(first.workspaceId, first.key, later.holder, { id: "theirs" })
        yield* store.release(first.workspaceId, first.key, later.holder)
        expect(Option.getOrThrow(yield* store.get(first.workspaceId, first.key)).response).toEqual(Option.none())

        yield* store.answer(first.workspaceId, first.key, first.holder, { id: "first" })
        yield* store.answer(first.workspaceId, first.key, first.holder, { id: "again" })
        const answered = yield* store.reserve(later)
        expect(answered.holder).toBe(first.holder)
        expect(answered.response).toEqual(Option.some({ id: "first" }))
        // An answered key is never released.
        yield* store.release(first.workspaceId, first.key, first.holder)
        expect(Option.getOrThrow(yield* store.get(first.workspaceId, first.key)).response).toEqual(Option.some({ id: "first" }))
      }))

    it.effect("frees a key its holder releases unanswered, for the next claim", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const first = aClaim()
        yield* store.reserve(first)
        yield* store.release(first.workspaceId, first.key, first.holder)
        expect(Option.isNone(yield* store.get(first.workspaceId, first.key))).toBe(true)
        const retry = aClaim({ workspaceId: first.workspaceId })
        expect((yield* store.reserve(retry)).holder).toBe(retry.holder)
      }))

    it.effect("takes over a reservation left unanswered since before staleBefore, never an answered one", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const crashed = aClaim({ reservedAt: "2025-01-02T03:00:00.000Z" })
        yield* store.reserve(crashed)
        const notYet = aClaim({ workspaceId: crashed.workspaceId, staleBefore: "2025-01-02T03:00:00.000Z" })
        expect((yield* store.reserve(notYet)).holder).toBe(crashed.holder)
        const later = aClaim({
          workspaceId: crashed.workspaceId,
          fingerprint: "cd".repeat(32),
          reservedAt: "2025-01-02T03:10:00.001Z",
          staleBefore: "2025-01-02T03:00:00.001Z"
        })
        const { staleBefore: _, ...taken } = later
        expect(yield* store.reserve(later)).toEqual({ ...taken, response: Option.none() })
        // The crashed holder, back after all, no longer holds it.
        yield* store.answer(crashed.workspaceId, crashed.key, crashed.holder, { id: "late" })
        expect(Option.getOrThrow(yield* store.get(crashed.workspaceId, crashed.key)).response).toEqual(Option.none())

        yield* store.answer(later.workspaceId, later.key, later.holder, { id: "later" })
        const much = aClaim({ workspaceId: crashed.workspaceId, staleBefore: "2030-01-01T00:00:00.000Z" })
        expect((yield* store.reserve(much)).holder).toBe(later.holder)
      }))

    it.effect("gives a key to exactly one of many concurrent claims", () =>
      Effect.gen(function*() {
        const store = yield* IdempotencyStore
        const workspaceId = randomUUID()
        const claims = Array.from({ length: 20 }, () => aClaim({ workspaceId, key: "race" }))
        const results = yield* Effect.all(claims.map((c) => store.reserve(c)), { concurrency: "unbounded" })
        const winners = results.filter((row, i) => row.holder === claims[i]!.holder)
        expect(winners).toHaveLength(1)
        expect(new Set(results.map((row) => row.holder))).toEqual(new Set([winners[0]!.holder]))
      }))
  })
