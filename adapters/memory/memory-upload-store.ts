// UploadStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { UploadStore } from "../../domain/ports/upload-store.ts"
import { decodeListCursor, encodeListCursor } from "../video-list-cursor.ts"
import { MemoryDatabase, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryUploadStoreLive = Layer.effect(
  UploadStore,
  Effect.map(MemoryDatabase, (db) =>
    UploadStore.of({
      insert: (upload) =>
        db.write((t) => ({ ...t, uploads: withRow(t.uploads, upload.key, upload) })).pipe(
          withSpan("MemoryUploadStore.insert")
        ),
      get: (workspaceId, key) =>
        db.read((t) => Option.fromNullable(t.uploads.get(key)).pipe(Option.filter((u) => u.workspaceId === workspaceId))).pipe(
          withSpan("MemoryUploadStore.get")
        ),
      list: ({ cursor, limit, workspaceId }) =>
        db.read((t) => {
          const after = cursor === undefined ? Option.none() : decodeListCursor(cursor)
          const newestFirst = [...t.uploads.values()]
            .filter((u) => u.workspaceId === workspaceId)
            .sort((a, b) => (a.createdAt === b.createdAt ? b.key.localeCompare(a.key) : b.createdAt.localeCompare(a.createdAt)))
          const rest = Option.match(after, {
            onNone: () => newestFirst,
            onSome: (p) => newestFirst.filter((u) => u.createdAt < p.createdAt || (u.createdAt === p.createdAt && u.key < p.id))
          })
          const items = rest.slice(0, limit)
          const last = items.at(-1)
          return {
            items,
            nextCursor: rest.length > limit && last !== undefined ? encodeListCursor({ createdAt: last.createdAt, id: last.key }) : null
          }
        }).pipe(withSpan("MemoryUploadStore.list"))
    }))
)
