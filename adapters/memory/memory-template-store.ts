// TemplateStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { TemplateStore } from "../../domain/ports/template-store.ts"
import { MemoryDatabase, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryTemplateStoreLive = Layer.effect(
  TemplateStore,
  Effect.map(MemoryDatabase, (db) =>
    TemplateStore.of({
      nextId: () =>
        db.modify((t) => [t.lastTemplateId + 1, { ...t, lastTemplateId: t.lastTemplateId + 1 }]).pipe(
          withSpan("MemoryTemplateStore.nextId")
        ),
      insert: (template) =>
        db.write((t) => ({ ...t, templates: withRow(t.templates, template.id, template) })).pipe(
          withSpan("MemoryTemplateStore.insert")
        ),
      list: (workspaceId) =>
        db.read((t) =>
          [...t.templates.values()]
            .filter((template) => template.workspaceId === workspaceId)
            .sort((a, b) => a.id - b.id)
        ).pipe(withSpan("MemoryTemplateStore.list")),
      get: (workspaceId, id) =>
        db.read((t) =>
          Option.fromNullable(t.templates.get(id)).pipe(
            Option.filter((template) => template.workspaceId === workspaceId)
          )
        ).pipe(withSpan("MemoryTemplateStore.get")),
      update: (template) =>
        db.write((t) =>
          t.templates.get(template.id)?.workspaceId === template.workspaceId
            ? { ...t, templates: withRow(t.templates, template.id, template) }
            : t
        ).pipe(withSpan("MemoryTemplateStore.update")),
      remove: (workspaceId, id) =>
        db.modify((t) => {
          if (t.templates.get(id)?.workspaceId !== workspaceId) return [false, t]
          const templates = new Map(t.templates)
          templates.delete(id)
          return [true, { ...t, templates }]
        }).pipe(withSpan("MemoryTemplateStore.remove"))
    }))
)
