// ClipsStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { ClipsStore } from "../../domain/ports/clips-store.ts"
import { MemoryDatabase, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryClipsStoreLive = Layer.effect(
  ClipsStore,
  Effect.map(MemoryDatabase, (db) =>
    ClipsStore.of({
      insert: (clips) =>
        db.write((t) => ({ ...t, clips: withRow(t.clips, clips.id, clips) })).pipe(withSpan("MemoryClipsStore.insert")),
      get: (workspaceId, id) =>
        db.read((t) => Option.fromNullable(t.clips.get(id)).pipe(Option.filter((r) => r.workspaceId === workspaceId))).pipe(
          withSpan("MemoryClipsStore.get")
        ),
      getById: (id) => db.read((t) => Option.fromNullable(t.clips.get(id))).pipe(withSpan("MemoryClipsStore.getById")),
      // A memory transaction holds the whole database already.
      getForUpdate: (id) => db.read((t) => Option.fromNullable(t.clips.get(id))).pipe(withSpan("MemoryClipsStore.getForUpdate")),
      update: (clips) =>
        db.write((t) => ({ ...t, clips: updateRow(t.clips, clips.id, () => clips) })).pipe(withSpan("MemoryClipsStore.update")),
      findByVideo: (workspaceId, videoId) =>
        db.read((t) =>
          Option.fromNullable([...t.clips.values()].find((r) => r.workspaceId === workspaceId && (r.clips ?? []).some((c) => c.videoId === videoId)))
        ).pipe(withSpan("MemoryClipsStore.findByVideo"))
    }))
)
