// TemplateStore on PostgreSQL: table caption_templates; ids come from the caption_template_ids sequence.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { CaptionStyle } from "../../domain/captions.ts"
import { TemplateStore } from "../../domain/ports/template-store.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, jsonText, NumberFromBigint } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const TemplateRow = Schema.Struct({
  id: Schema.Number,
  workspace_id: Schema.String,
  name: Schema.String,
  built_in: Schema.Boolean,
  style: CaptionStyle,
  created_at: IsoFromDate
}).pipe(Schema.rename({ workspace_id: "workspaceId", built_in: "builtIn", created_at: "createdAt" }))

const templateRows = rowDecoder("caption_templates", TemplateRow)
const templateIdRows = rowDecoder("caption_template_ids", Schema.Struct({ id: NumberFromBigint }))

export const PgTemplateStoreLive = Layer.effect(
  TemplateStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    TemplateStore.of({
      nextId: () =>
        sql`SELECT nextval('caption_template_ids') AS id`.pipe(
          Effect.flatMap((rows) => templateIdRows.one(rows[0])),
          Effect.map((row) => row.id),
          Effect.orDie,
          withSpan("PgTemplateStore.nextId")
        ),
      insert: (t) =>
        sql`INSERT INTO caption_templates (id, workspace_id, name, built_in, style, created_at)
          VALUES (${t.id}, ${t.workspaceId}, ${t.name}, ${t.builtIn}, ${jsonText(t.style)}, ${t.createdAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgTemplateStore.insert")
        ),
      list: (workspaceId) =>
        sql`SELECT * FROM caption_templates WHERE workspace_id = ${workspaceId} ORDER BY id`.pipe(
          Effect.flatMap(templateRows.all),
          Effect.orDie,
          withSpan("PgTemplateStore.list")
        ),
      get: (workspaceId, id) =>
        sql`SELECT * FROM caption_templates WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(templateRows.first),
          Effect.orDie,
          withSpan("PgTemplateStore.get")
        ),
      // Only within the template's own workspace.
      update: (t) =>
        sql`UPDATE caption_templates SET name = ${t.name}, built_in = ${t.builtIn}, style = ${jsonText(t.style)},
            created_at = ${t.createdAt}
          WHERE id = ${t.id} AND workspace_id = ${t.workspaceId}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgTemplateStore.update")
        ),
      remove: (workspaceId, id) =>
        sql`DELETE FROM caption_templates WHERE id = ${id} AND workspace_id = ${workspaceId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          withSpan("PgTemplateStore.remove")
        )
    }))
)
