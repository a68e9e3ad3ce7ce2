// What every UploadStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { type Upload, UploadStore } from "../../domain/ports/upload-store.ts"

const anUpload = (workspaceId: string, createdAt: string, changes: Partial<Upload> = {}): Upload => ({
  key: randomUUID(),
  workspaceId,
  kind: "image",
  name: "cover.png",
  contentType: "image/png",
  bytes: 12_345,
  width: 1080,
  height: 1920,
  durationSeconds: null,
  createdAt,
  ...changes
})

export const uploadStoreContract = (name: string, stores: Layer.Layer<UploadStore, unknown>): void =>
  layer(stores)(`UploadStore (${name})`, (it) => {
    it.effect("finds an upload by key within its workspace only", () =>
      Effect.gen(function*() {
        const store = yield* UploadStore
        const workspaceId = randomUUID()
        const clip = anUpload(workspaceId, "2025-01-02T03:04:05.678Z", { kind: "video", contentType: "video/mp4", durationSeconds: 12.5 })
        yield* store.insert(clip)
        expect(Option.getOrThrow(yield* store.get(workspaceId, clip.key))).toEqual(clip)
        expect(Option.isNone(yield* store.get(randomUUID(), clip.key))).toBe(true)
        expect(Option.isNone(yield* store.get(workspaceId, randomUUID()))).toBe(true)
      }))

    it.effect("lists a workspace's uploads newest first, page by page", () =>
      Effect.gen(function*() {
        const store = yield* UploadStore
        const workspaceId = randomUUID()
        const uploads = [0, 1, 2, 3, 4].map((i) => anUpload(workspaceId, `2025-01-0${i + 1}T00:00:00.000Z`))
        yield* Effect.forEach(uploads, store.insert)
        yield* store.insert(anUpload(randomUUID(), "2025-01-09T00:00:00.000Z"))
        const first = yield* store.list({ workspaceId, limit: 2, cursor: undefined })
        expect(first.items.map((u) => u.key)).toEqual([uploads[4]!.key, uploads[3]!.key])
        const second = yield* store.list({ workspaceId, limit: 2, cursor: first.nextCursor! })
        const third = yield* store.list({ workspaceId, limit: 2, cursor: second.nextCursor! })
        expect([...second.items, ...third.items].map((u) => u.key)).toEqual([uploads[2]!.key, uploads[1]!.key, uploads[0]!.key])
        expect(third.nextCursor).toBeNull()
      }))
  })
