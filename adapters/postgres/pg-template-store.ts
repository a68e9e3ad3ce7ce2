// TemplateStore on PostgreSQL: table caption_templates; ids come from the caption_template_ids sequence.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { CaptionStyle } from "../../domain/captions.ts"
import { type SavedTemplate, TemplateStore } from "../../domain/ports/template-store.ts"
import { fromBigint, isoText, jsonText } from "./pg-values.ts"

interface TemplateRow {
  readonly id: number
  readonly workspace_id: string
  readonly name: string
  readonly built_in: boolean
  readonly style: CaptionStyle
  readonly created_at: Date
}

const toTemplate = (row: TemplateRow): SavedTemplate => ({
  id: row.id,
  name: row.name,
  builtIn: row.built_in,
  style: row.style,
  workspaceId: row.workspace_id,
  createdAt: isoText(row.created_at)
})

export const PgTemplateStoreLive = Layer.effect(
  TemplateStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    TemplateStore.of({
      nextId: () =>
        sql<{ readonly id: string }>`SELECT nextval('caption_template_ids') AS id`.pipe(
          Effect.map((rows) => fromBigint(rows[0]!.id)),
          Effect.orDie,
          Effect.withSpan("PgTemplateStore.nextId")
        ),
      insert: (t) =>
        sql`INSERT INTO caption_templates (id, workspace_id, name, built_in, style, created_at)
          VALUES (${t.id}, ${t.workspaceId}, ${t.name}, ${t.builtIn}, ${jsonText(t.style)}, ${t.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgTemplateStore.insert")
        ),
      list: (workspaceId) =>
        sql<TemplateRow>`SELECT * FROM caption_templates WHERE workspace_id = ${workspaceId} ORDER BY id`.pipe(
          Effect.map((rows) => rows.map(toTemplate)),
          Effect.orDie,
          Effect.withSpan("PgTemplateStore.list")
        ),
      get: (workspaceId, id) =>
        sql<TemplateRow>`SELECT * FROM caption_templates WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toTemplate)),
          Effect.orDie,
          Effect.withSpan("PgTemplateStore.get")
        ),
      // Only within the template's own workspace.
      update: (t) =>
        sql`UPDATE caption_templates SET name = ${t.name}, built_in = ${t.builtIn}, style = ${jsonText(t.style)},
            created_at = ${t.createdAt}
          WHERE id = ${t.id} AND workspace_id = ${t.workspaceId}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgTemplateStore.update")
        ),
      remove: (workspaceId, id) =>
        sql`DELETE FROM caption_templates WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.withSpan("PgTemplateStore.remove")
        )
    }))
)
