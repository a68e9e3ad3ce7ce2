// What every Ledger adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, type Layer } from "effect"
import { InsufficientCredits } from "../../domain/errors.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { anEntry } from "./fixtures.ts"

export const ledgerContract = (name: string, stores: Layer.Layer<Ledger, unknown>): void =>
  layer(stores)(`Ledger (${name})`, (it) => {
    it.effect("sums the movements of a workspace into its balance", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        expect(yield* ledger.balance(workspaceId)).toBe(0)
        yield* ledger.post(anEntry(workspaceId, 100))
        yield* ledger.post(anEntry(workspaceId, -30))
        yield* ledger.post(anEntry(randomUUID(), 500))
        expect(yield* ledger.balance(workspaceId)).toBe(70)
      }))

    it.effect("records a key once and returns the first entry again", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        yield* ledger.post(anEntry(workspaceId, 100))
        const charge = anEntry(workspaceId, -40, { workKey: "v:0" })
        expect(yield* ledger.post(charge)).toEqual(charge)
        const again = yield* ledger.post({ ...charge, id: randomUUID(), amount: -10 })
        expect(again).toEqual(charge)
        expect(yield* ledger.balance(workspaceId)).toBe(60)
        expect(yield* ledger.list(workspaceId)).toHaveLength(2)
      }))

    it.effect("refuses a charge beyond the balance and records nothing", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        yield* ledger.post(anEntry(workspaceId, 50))
        const refused = yield* Effect.flip(ledger.post(anEntry(workspaceId, -80)))
        expect(refused).toBeInstanceOf(InsufficientCredits)
        expect({ required: refused.required, balance: refused.balance }).toEqual({ required: 80, balance: 50 })
        expect(yield* ledger.balance(workspaceId)).toBe(50)
        expect(yield* ledger.list(workspaceId)).toHaveLength(1)

        yield* ledger.post(anEntry(workspaceId, -50))
        expect(yield* ledger.balance(workspaceId)).toBe(0)
        const empty = yield* Effect.flip(ledger.post(anEntry(randomUUID(), -1)))
        expect({ required: empty.required, balance: empty.balance }).toEqual({ required: 1, balance: 0 })
      }))

    it.effect("never lets concurrent charges take the balance below zero", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        yield* ledger.post(anEntry(workspaceId, 100))
        const results = yield* Effect.all(
          Array.from({ length: 5 }, () => Effect.either(ledger.post(anEntry(workspaceId, -30)))),
          { concurrency: "unbounded" }
        )
        expect(results.filter(Either.isRight)).toHaveLength(3)
        expect(results.filter(Either.isLeft)).toHaveLength(2)
        expect(yield* ledger.balance(workspaceId)).toBe(10)
      }))

    it.effect("lists a workspace's entries in posting order, and the entries of one piece of work", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        const videoId = randomUUID()
        const topUp = anEntry(workspaceId, 200, { at: "2025-01-01T00:00:00.000Z" })
        const charge = anEntry(workspaceId, -60, {
          workKey: `${videoId}:1`,
          videoId,
          at: "2025-01-01T00:01:00.000Z"
        })
        const refund = anEntry(workspaceId, 60, {
          workKey: `${videoId}:1`,
          videoId,
          reason: "refund",
          at: "2025-01-01T00:02:00.000Z"
        })
        const other = anEntry(workspaceId, -30, { workKey: `${videoId}:2`, videoId, at: "2025-01-01T00:03:00.000Z" })
        for (const entry of [topUp, charge, refund, other]) yield* ledger.post(entry)

        expect(yield* ledger.list(workspaceId)).toEqual([topUp, charge, refund, other])
        expect(yield* ledger.entriesForWork(`${videoId}:1`)).toEqual([charge, refund])
        expect(yield* ledger.entriesForWork(`${videoId}:9`)).toEqual([])
      }))
  })
