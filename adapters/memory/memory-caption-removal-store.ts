// CaptionRemovalStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import { MemoryDatabase, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryCaptionRemovalStoreLive = Layer.effect(
  CaptionRemovalStore,
  Effect.map(MemoryDatabase, (db) =>
    CaptionRemovalStore.of({
      insert: (removal) =>
        db.write((t) => ({ ...t, captionRemovals: withRow(t.captionRemovals, removal.id, removal) })).pipe(
          withSpan("MemoryCaptionRemovalStore.insert")
        ),
      get: (workspaceId, id) =>
        db.read((t) =>
          Option.fromNullable(t.captionRemovals.get(id)).pipe(Option.filter((r) => r.workspaceId === workspaceId))
        ).pipe(withSpan("MemoryCaptionRemovalStore.get")),
      getById: (id) =>
        db.read((t) => Option.fromNullable(t.captionRemovals.get(id))).pipe(
          withSpan("MemoryCaptionRemovalStore.getById")
        ),
      // A memory transaction holds the whole database already.
      getForUpdate: (id) =>
        db.read((t) => Option.fromNullable(t.captionRemovals.get(id))).pipe(
          withSpan("MemoryCaptionRemovalStore.getForUpdate")
        ),
      update: (removal) =>
        db.write((t) => ({ ...t, captionRemovals: updateRow(t.captionRemovals, removal.id, () => removal) })).pipe(
          withSpan("MemoryCaptionRemovalStore.update")
        )
    }))
)
