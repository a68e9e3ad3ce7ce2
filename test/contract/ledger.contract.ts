// What every Ledger adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, Either, type Layer } from "effect"
import { InsufficientCredits } from "../../domain/errors.ts"
import { type EntryPage, Ledger, type LedgerEntry } from "../../domain/ports/ledger.ts"
import { anEntry } from "./fixtures.ts"

/** Every page of a log, following the cursors. */
export const allPages = <A>(
  first: EntryPage<A>,
  next: (cursor: string) => Effect.Effect<EntryPage<A>>
): Effect.Effect<ReadonlyArray<EntryPage<A>>> =>
  first.nextCursor === null
    ? Effect.succeed([first])
    : Effect.map(Effect.flatMap(next(first.nextCursor), (page) => allPages(page, next)), (rest) => [first, ...rest])

/** In posting order, each entry's balance after is the one before it plus its amount. */
export const expectChained = (entries: ReadonlyArray<{ readonly amount: number; readonly balanceAfter: number }>) => {
  let balance = 0
  for (const entry of entries) {
    balance += entry.amount
    expect(entry.balanceAfter).toBe(balance)
  }
}

export const ledgerContract = (name: string, stores: Layer.Layer<Ledger, unknown>): void =>
  layer(stores)(`Ledger (${name})`, (it) => {
    it.effect("sums the movements of a workspace into its balance, and records the balance after each", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        expect(yield* ledger.balance(workspaceId)).toBe(0)
        const topUp = yield* ledger.post(anEntry(workspaceId, 100))
        yield* ledger.post(anEntry(randomUUID(), 500))
        const charge = yield* ledger.post(anEntry(workspaceId, -30, { reason: "render", operation: "render" }))
        expect([topUp.balanceAfter, charge.balanceAfter]).toEqual([100, 70])
        expect(charge.operation).toBe("render")
        expect(yield* ledger.balance(workspaceId)).toBe(70)
      }))

    it.effect("records a key once and returns the first entry again", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        yield* ledger.post(anEntry(workspaceId, 100))
        const charge = anEntry(workspaceId, -40, { workKey: "v:0" })
        const posted = yield* ledger.post(charge)
        expect(posted).toEqual({ ...charge, balanceAfter: 60 })
        const again = yield* ledger.post({ ...charge, id: randomUUID(), amount: -10 })
        expect(again).toEqual(posted)
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

        const last = yield* ledger.post(anEntry(workspaceId, -50))
        expect(last.balanceAfter).toBe(0)
        expect(yield* ledger.balance(workspaceId)).toBe(0)
        const empty = yield* Effect.flip(ledger.post(anEntry(randomUUID(), -1)))
        expect({ required: empty.required, balance: empty.balance }).toEqual({ required: 1, balance: 0 })
      }))

    it.effect("lets exactly 20 of 50 concurrent charges through on a balance that covers 20, each with its exact balance after", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        yield* ledger.post(anEntry(workspaceId, 20 * 30))
        const results = yield* Effect.all(
          Array.from({ length: 50 }, () => Effect.either(ledger.post(anEntry(workspaceId, -30)))),
          { concurrency: "unbounded" }
        )
        const accepted = results.filter(Either.isRight).map((r) => r.right)
        expect(accepted).toHaveLength(20)
        expect(results.filter(Either.isLeft).every((r) => r.left instanceof InsufficientCredits)).toBe(true)
        expect(yield* ledger.balance(workspaceId)).toBe(0)
        // Every balance from 570 down to 0 taken exactly once: no two charges saw the same balance.
        expect(accepted.map((e) => e.balanceAfter).sort((a, b) => b - a)).toEqual(Array.from({ length: 20 }, (_, i) => 570 - i * 30))
        const entries = yield* ledger.list(workspaceId)
        expect(entries).toHaveLength(21)
        expect(entries.reduce((sum, e) => sum + e.amount, 0)).toBe(0)
        expectChained(entries)
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
          reason: "refund: render",
          operation: "refund",
          at: "2025-01-01T00:02:00.000Z"
        })
        const other = anEntry(workspaceId, -30, { workKey: `${videoId}:2`, videoId, at: "2025-01-01T00:03:00.000Z" })
        const posted = yield* Effect.forEach([topUp, charge, refund, other], ledger.post)

        expect(posted.map((e) => e.balanceAfter)).toEqual([200, 140, 200, 170])
        expect(yield* ledger.list(workspaceId)).toEqual(posted)
        expect(yield* ledger.entriesForWork(`${videoId}:1`)).toEqual([posted[1], posted[2]])
        expect(yield* ledger.entriesForWork(`${videoId}:9`)).toEqual([])
      }))

    it.effect("pages a workspace's entries newest first with cursors, over many entries, by video when asked", () =>
      Effect.gen(function*() {
        const ledger = yield* Ledger
        const workspaceId = randomUUID()
        const videos = [randomUUID(), randomUUID()]
        yield* ledger.post(anEntry(workspaceId, 10_000))
        // Equal timestamps throughout: posting order, not time, orders the log.
        for (let i = 0; i < 44; i++) {
          const videoId = videos[i % 2]!
          yield* ledger.post(anEntry(workspaceId, -(i + 1), { videoId, workKey: `${videoId}:${i}` }))
          if (i % 5 === 0) yield* ledger.post(anEntry(randomUUID(), 7, { videoId }))
        }
        const everything = yield* ledger.list(workspaceId)
        expect(everything).toHaveLength(45)
        expectChained(everything)

        const page = (cursor: string | undefined, videoId?: string) =>
          ledger.page({ workspaceId, videoId, limit: 7, cursor })
        const pages = yield* allPages(yield* page(undefined), (cursor) => page(cursor))
        expect(pages.map((p) => p.items.length)).toEqual([7, 7, 7, 7, 7, 7, 3])
        expect(pages.flatMap((p) => p.items)).toEqual([...everything].reverse())
        expect(pages.at(-1)!.nextCursor).toBeNull()

        const ofVideo = yield* allPages(yield* page(undefined, videos[1]), (cursor) => page(cursor, videos[1]))
        expect(ofVideo.flatMap((p) => p.items)).toEqual([...everything].reverse().filter((e: LedgerEntry) => e.videoId === videos[1]))
        expect(ofVideo.map((p) => p.items.length)).toEqual([7, 7, 7, 1])

        const exact = yield* ledger.page({ workspaceId, videoId: undefined, limit: 45, cursor: undefined })
        expect({ count: exact.items.length, nextCursor: exact.nextCursor }).toEqual({ count: 45, nextCursor: null })
        expect(yield* ledger.page({ workspaceId: randomUUID(), videoId: undefined, limit: 7, cursor: undefined }))
          .toEqual({ items: [], nextCursor: null })
        expect(yield* ledger.page({ workspaceId, videoId: undefined, limit: 7, cursor: "not-a-cursor" }))
          .toEqual({ items: [], nextCursor: null })
      }))
  })
