// UploadStore on PostgreSQL: table uploads. Lists page by keyset on (created_at, key).
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import type { MediaKind } from "../../domain/media-kinds.ts"
import { UploadStore } from "../../domain/ports/upload-store.ts"
import { decodeListCursor, encodeListCursor } from "../video-list-cursor.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, NumberFromBigint } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const UploadRow = Schema.Struct({
  key: Schema.String,
  workspace_id: Schema.String,
  kind: Schema.Literal("image", "gif", "video") satisfies Schema.Schema<MediaKind>,
  name: Schema.String,
  content_type: Schema.String,
  bytes: NumberFromBigint,
  width: Schema.Number,
  height: Schema.Number,
  duration_seconds: Schema.NullOr(Schema.Number),
  created_at: IsoFromDate
}).pipe(Schema.rename({
  workspace_id: "workspaceId",
  content_type: "contentType",
  duration_seconds: "durationSeconds",
  created_at: "createdAt"
}))

const uploadRows = rowDecoder("uploads", UploadRow, ["key"])

export const PgUploadStoreLive = Layer.effect(
  UploadStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    UploadStore.of({
      insert: (u) =>
        sql`INSERT INTO uploads (key, workspace_id, kind, name, content_type, bytes, width, height, duration_seconds, created_at)
          VALUES (${u.key}, ${u.workspaceId}, ${u.kind}, ${u.name}, ${u.contentType}, ${u.bytes}, ${u.width}, ${u.height},
            ${u.durationSeconds}, ${u.createdAt})`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgUploadStore.insert")),
      get: (workspaceId, key) =>
        sql`SELECT * FROM uploads WHERE key = ${key} AND workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(uploadRows.first),
          Effect.orDie,
          withSpan("PgUploadStore.get")
        ),
      list: ({ cursor, limit, workspaceId }) => {
        // A cursor this adapter did not make points past the end: an empty page rather than a restart.
        const after = cursor === undefined ? Option.some(undefined) : decodeListCursor(cursor)
        if (Option.isNone(after)) return Effect.succeed({ items: [], nextCursor: null }).pipe(withSpan("PgUploadStore.list"))
        const conditions = [
          sql`workspace_id = ${workspaceId}`,
          ...(after.value === undefined ? [] : [sql`(created_at, key) < (${after.value.createdAt}::timestamptz, ${after.value.id})`])
        ]
        return sql`SELECT * FROM uploads WHERE ${sql.and(conditions)}
          ORDER BY created_at DESC, key DESC LIMIT ${limit + 1}`.pipe(
          Effect.flatMap((rows) =>
            Effect.map(uploadRows.all(rows.slice(0, limit)), (items) => {
              const last = items.at(-1)
              return {
                items,
                nextCursor: rows.length > limit && last !== undefined ? encodeListCursor({ createdAt: last.createdAt, id: last.key }) : null
              }
            })
          ),
          Effect.orDie,
          withSpan("PgUploadStore.list")
        )
      }
    }))
)
