// What every CashLedger adapter must do: the balance log, in micro-dollars, never below zero.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, type Layer, Option } from "effect"
import { InsufficientCash } from "../../domain/errors.ts"
import { CashLedger } from "../../domain/ports/cash-ledger.ts"
import { aCashEntry } from "./fixtures.ts"
import { allPages, expectChained } from "./ledger.contract.ts"

export const cashLedgerContract = (name: string, stores: Layer.Layer<CashLedger, unknown>): void =>
  layer(stores)(`CashLedger (${name})`, (it) => {
    it.effect("keeps a balance per workspace, records the balance after each entry, and a key once", () =>
      Effect.gen(function*() {
        const cash = yield* CashLedger
        const workspaceId = randomUUID()
        expect(yield* cash.balance(workspaceId)).toBe(0)
        const topUp = aCashEntry(workspaceId, 25_000_000, { note: "invoice 12" })
        expect(yield* cash.post(topUp)).toEqual({ ...topUp, balanceAfter: 25_000_000 })
        yield* cash.post(aCashEntry(randomUUID(), 9_000_000))
        const videoId = randomUUID()
        const charge = yield* cash.post(aCashEntry(workspaceId, -101_667, { videoId }))
        expect(charge).toMatchObject({ kind: "render_charge", videoId, balanceAfter: 24_898_333 })
        const refund = yield* cash.post(aCashEntry(workspaceId, 101_667, { kind: "render_refund", videoId }))
        expect(refund.balanceAfter).toBe(25_000_000)
        const market = yield* cash.post(aCashEntry(workspaceId, -4_990_000, { kind: "marketplace_charge", note: "voice pack" }))
        expect(market.balanceAfter).toBe(20_010_000)
        expect(yield* cash.post({ ...topUp, id: randomUUID(), amount: 1 })).toEqual({ ...topUp, balanceAfter: 25_000_000 })
        expect(yield* cash.balance(workspaceId)).toBe(20_010_000)
      }))

    it.effect("finds an entry by its key, and nothing for a key never posted", () =>
      Effect.gen(function*() {
        const cash = yield* CashLedger
        const workspaceId = randomUUID()
        yield* cash.post(aCashEntry(workspaceId, 1_000_000))
        const charge = yield* cash.post(aCashEntry(workspaceId, -100_000, { key: `${randomUUID()}:1:render` }))
        expect(yield* cash.entry(charge.key)).toEqual(Option.some(charge))
        expect(yield* cash.entry(`${charge.key}:refund`)).toEqual(Option.none())
      }))

    it.effect("refuses a charge beyond the balance and records nothing: the balance is never negative", () =>
      Effect.gen(function*() {
        const cash = yield* CashLedger
        const workspaceId = randomUUID()
        const refusedOnEmpty = yield* Effect.flip(cash.post(aCashEntry(workspaceId, -1)))
        expect(refusedOnEmpty).toBeInstanceOf(InsufficientCash)
        yield* cash.post(aCashEntry(workspaceId, 500_000))
        const refused = yield* Effect.flip(cash.post(aCashEntry(workspaceId, -500_001)))
        expect({ required: refused.required, balance: refused.balance }).toEqual({ required: 500_001, balance: 500_000 })
        const page = yield* cash.page({ workspaceId, limit: 10, cursor: undefined })
        expect(page.items.map((e) => e.amount)).toEqual([500_000])
        expect((yield* cash.post(aCashEntry(workspaceId, -500_000))).balanceAfter).toBe(0)
      }))

    it.effect("lets exactly 20 of 50 concurrent charges through on a balance that covers 20", () =>
      Effect.gen(function*() {
        const cash = yield* CashLedger
        const workspaceId = randomUUID()
        yield* cash.post(aCashEntry(workspaceId, 20 * 100_000))
        const results = yield* Effect.all(
          Array.from({ length: 50 }, () => Effect.either(cash.post(aCashEntry(workspaceId, -100_000)))),
          { concurrency: "unbounded" }
        )
        expect(results.filter(Either.isRight)).toHaveLength(20)
        expect(results.filter(Either.isLeft).every((r) => r.left instanceof InsufficientCash)).toBe(true)
        expect(yield* cash.balance(workspaceId)).toBe(0)
        const log = yield* cash.page({ workspaceId, limit: 100, cursor: undefined })
        expect(log.items).toHaveLength(21)
        expect(log.items.reduce((sum, e) => sum + e.amount, 0)).toBe(0)
        expectChained([...log.items].reverse())
      }))

    it.effect("pages the log newest first with cursors", () =>
      Effect.gen(function*() {
        const cash = yield* CashLedger
        const workspaceId = randomUUID()
        const posted = []
        for (let i = 0; i < 23; i++) {
          posted.push(yield* cash.post(aCashEntry(workspaceId, i % 3 === 2 ? -10_000 : 20_000)))
          if (i % 4 === 0) yield* cash.post(aCashEntry(randomUUID(), 1))
        }
        expectChained(posted)
        const page = (cursor: string | undefined) => cash.page({ workspaceId, limit: 5, cursor })
        const pages = yield* allPages(yield* page(undefined), page)
        expect(pages.map((p) => p.items.length)).toEqual([5, 5, 5, 5, 3])
        expect(pages.flatMap((p) => p.items)).toEqual([...posted].reverse())
        expect(yield* page("bm90LW1pbmU")).toEqual({ items: [], nextCursor: null })
      }))
  })
