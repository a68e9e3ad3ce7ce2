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

    it.effect("marks a file deleted", () =>
      Effect.gen(function*() {
        const store = yield* FileStore
        const file = aFile()
        yield* store.insert(file)
        yield* store.markDeleted(file.id, "2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.get(file.id))).toEqual({ ...file, deletedAt: "2025-02-03T04:05:06.789Z" })
      }))
  })
