// UploadStore on PostgreSQL: table uploads. Lists page by keyset on (created_at, key).
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { MediaKind } from "../../domain/media-kinds.ts"
import { type Upload, UploadStore } from "../../domain/ports/upload-store.ts"
import { decodeListCursor, encodeListCursor } from "../video-list-cursor.ts"
import { fromBigint, isoText } from "./pg-values.ts"

interface UploadRow {
  readonly key: string
  readonly workspace_id: string
  readonly kind: MediaKind
  readonly name: string
  readonly content_type: string
  readonly bytes: string
  readonly width: number
  readonly height: number
  readonly duration_seconds: number | null
  readonly created_at: Date
}

const toUpload = (row: UploadRow): Upload => ({
  key: row.key,
  workspaceId: row.workspace_id,
  kind: row.kind,
  name: row.name,
  contentType: row.content_type,
  bytes: fromBigint(row.bytes),
  width: row.width,
  height: row.height,
  durationSeconds: row.duration_seconds,
  createdAt: isoText(row.created_at)
})

export const PgUploadStoreLive = Layer.effect(
  UploadStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    UploadStore.of({
      insert: (u) =>
        sql`INSERT INTO uploads (key, workspace_id, kind, name, content_type, bytes, width, height, duration_seconds, created_at)
          VALUES (${u.key}, ${u.workspaceId}, ${u.kind}, ${u.name}, ${u.contentType}, ${u.bytes}, ${u.width}, ${u.height},
            ${u.durationSeconds}, ${u.createdAt})`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgUploadStore.insert")),
      get: (workspaceId, key) =>
        sql<UploadRow>`SELECT * FROM uploads WHERE key = ${key} AND workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toUpload)),
          Effect.orDie,
          Effect.withSpan("PgUploadStore.get")
        ),
      list: ({ cursor, limit, workspaceId }) => {
        // A cursor this adapter did not make points past the end: an empty page rather than a restart.
        const after = cursor === undefined ? Option.some(undefined) : decodeListCursor(cursor)
        if (Option.isNone(after)) return Effect.succeed({ items: [], nextCursor: null }).pipe(Effect.withSpan("PgUploadStore.list"))
        const conditions = [
          sql`workspace_id = ${workspaceId}`,
          ...(after.value === undefined ? [] : [sql`(created_at, key) < (${after.value.createdAt}::timestamptz, ${after.value.id})`])
        ]
        return sql<UploadRow>`SELECT * FROM uploads WHERE ${sql.and(conditions)}
          ORDER BY created_at DESC, key DESC LIMIT ${limit + 1}`.pipe(
          Effect.map((rows) => {
            const items = rows.slice(0, limit).map(toUpload)
            const last = items.at(-1)
            return {
              items,
              nextCursor: rows.length > limit && last !== undefined ? encodeListCursor({ createdAt: last.createdAt, id: last.key }) : null
            }
          }),
          Effect.orDie,
          Effect.withSpan("PgUploadStore.list")
        )
      }
    }))
)
