// What every FileStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { FileStore, type StoredFile } from "../../domain/ports/file-store.ts"

const aFile = (changes: Partial<StoredFile> = {}): StoredFile => {
  const id = randomUUID()
  return {
    id,
    workspaceId: randomUUID(),
    blobKey: `files/${id}/video.mp4`,
    token: randomUUID().replaceAll("-", ""),
    name: "video.mp4",
    contentType: "video/mp4",
    bytes: 123_456,
    createdAt: "2025-01-02T03:04:05.678Z",
    expiresAt: null,
    deletedAt: null,
    purgedAt: null,
    ...changes
  }
}

export const fileStoreContract = (name: string, stores: Layer.Layer<FileStore, unknown>): void =>
  layer(stores)(`FileStore (${name})`, (it) => {
    it.effect("finds a file by id and by its link token", () =>
      Effect.gen(function*() {
        const store = yield* FileStore
        const file = aFile({ expiresAt: 1_767_225_600_000 })
        yield* store.insert(file)
        yield* store.insert(aFile())
        expect(Option.getOrThrow(yield* store.get(file.id))).toEqual(file)
        expect(Option.getOrThrow(yield* store.getByToken(file.token))).toEqual(file)
        expect(Option.isNone(yield* store.get(randomUUID()))).toBe(true)
        expect(Option.isNone(yield* store.getByToken("nope"))).toBe(true)
      }))

    it.effect("reads the files among many ids at once, leaving out the unknown ones", () =>
      Effect.gen(function*() {
        const store = yield* FileStore
        const [a, b] = [aFile(), aFile({ deletedAt: "2026-01-02T00:00:00.000Z" })]
        yield* store.insert(a)
        yield* store.insert(b)
        yield* store.insert(aFile())
        const found = yield* store.getMany([b.id, randomUUID(), a.id])
        expect([...found].sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)))
        expect(yield* store.getMany([])).toEqual([])
      }))

    it.effect("marks a file deleted", () =>
      Effect.gen(function*() {
        const store = yield* FileStore
        const file = aFile()
        yield* store.insert(file)
        yield* store.markDeleted(file.id, "2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.get(file.id))).toEqual({ ...file, deletedAt: "2025-02-03T04:05:06.789Z" })
      }))

    it.effect("lists the expired files still stored, soonest expired first, and marks them purged once", () =>
      Effect.gen(function*() {
        const store = yield* FileStore
        // Early in 1970: no other test's file expires before, so the listing holds this test's only.
        const now = 10_000
        const workspaceId = randomUUID()
        const later = aFile({ workspaceId, expiresAt: now - 1 })
        const sooner = aFile({ workspaceId, expiresAt: now - 1_000 })
        const atNow = aFile({ workspaceId, expiresAt: now })
        const kept = aFile({ workspaceId, expiresAt: now + 1 })
        const deleted = aFile({ workspaceId, expiresAt: now - 2_000, deletedAt: "2025-02-03T04:05:06.789Z" })
        for (const file of [later, sooner, atNow, kept, deleted]) yield* store.insert(file)

        const expired = yield* store.listExpired(now, 10)
        expect(expired.filter((f) => f.workspaceId === workspaceId).map((f) => f.id)).toEqual([sooner.id, later.id, atNow.id])
        expect((yield* store.listExpired(now, 1)).length).toBe(1)

        const at = new Date(now).toISOString()
        expect(yield* store.markPurged(sooner.id, at)).toBe(true)
        expect(yield* store.markPurged(sooner.id, at)).toBe(false)
        // Not expired at `at`, or deleted: never purged.
        expect(yield* store.markPurged(kept.id, at)).toBe(false)
        expect(yield* store.markPurged(deleted.id, at)).toBe(false)
        expect(Option.getOrThrow(yield* store.get(sooner.id))).toEqual({ ...sooner, purgedAt: at })
        expect(Option.getOrThrow(yield* store.get(kept.id)).purgedAt).toBeNull()
        expect((yield* store.listExpired(now, 10)).filter((f) => f.workspaceId === workspaceId).map((f) => f.id)).toEqual([later.id, atNow.id])

        // A plan that keeps files re-dates the files still stored; the purged one keeps its expiry.
        yield* store.setRetention(workspaceId, null)
        expect(Option.getOrThrow(yield* store.get(later.id)).expiresAt).toBeNull()
        expect(Option.getOrThrow(yield* store.get(sooner.id))).toEqual({ ...sooner, purgedAt: at })
      }))
  })
