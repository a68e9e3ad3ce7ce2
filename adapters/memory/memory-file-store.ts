// FileStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { isPastExpiry } from "../../domain/file-retention.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { byCodeUnits, MemoryDatabase, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryFileStoreLive = Layer.effect(
  FileStore,
  Effect.map(MemoryDatabase, (db) =>
    FileStore.of({
      insert: (file) =>
        db.write((t) => ({ ...t, files: withRow(t.files, file.id, file) })).pipe(
          withSpan("MemoryFileStore.insert")
        ),
      get: (id) => db.read((t) => Option.fromNullable(t.files.get(id))).pipe(withSpan("MemoryFileStore.get")),
      getMany: (ids) =>
        db.read((t) => ids.flatMap((id) => t.files.get(id) ?? [])).pipe(withSpan("MemoryFileStore.getMany", { attributes: { files: ids.length } })),
      getByToken: (token) =>
        db.read((t) => Option.fromNullable([...t.files.values()].find((f) => f.token === token))).pipe(
          withSpan("MemoryFileStore.getByToken")
        ),
      // The first deletion time stands.
      markDeleted: (id, at) =>
        db.write((t) => ({
          ...t,
          files: updateRow(t.files, id, (f) => f.deletedAt === null ? { ...f, deletedAt: at } : f)
        })).pipe(withSpan("MemoryFileStore.markDeleted")),
      setRetention: (workspaceId, retentionMs) =>
        db.write((t) => ({
          ...t,
          files: new Map(
            [...t.files].map(([id, f]) =>
              [
                id,
                f.workspaceId === workspaceId && f.deletedAt === null && f.purgedAt === null
                  ? { ...f, expiresAt: retentionMs === null ? null : Date.parse(f.createdAt) + retentionMs }
                  : f
              ] as const
            )
          )
        })).pipe(withSpan("MemoryFileStore.setRetention")),
      listExpired: (now, limit) =>
        db.read((t) =>
          [...t.files.values()]
            .filter((f) => f.deletedAt === null && f.purgedAt === null && isPastExpiry(f, now))
            .sort((a, b) => a.expiresAt! - b.expiresAt! || byCodeUnits(a.id, b.id))
            .slice(0, limit)
        ).pipe(withSpan("MemoryFileStore.listExpired")),
      markPurged: (id, at) =>
        db.modify((t) => {
          const file = t.files.get(id)
          const purgeable = file !== undefined && file.deletedAt === null && file.purgedAt === null &&
            isPastExpiry(file, Date.parse(at))
          return [purgeable, purgeable ? { ...t, files: withRow(t.files, id, { ...file, purgedAt: at }) } : t] as const
        }).pipe(withSpan("MemoryFileStore.markPurged"))
    }))
)
