// FileStore on PostgreSQL: table files.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { FileStore } from "../../domain/ports/file-store.ts"
import { rowDecoder, rowsWithIds } from "./pg-rows.ts"
import { IsoFromDate, NumberFromBigint } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const FileRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  blob_key: Schema.String,
  token: Schema.String,
  name: Schema.String,
  content_type: Schema.String,
  bytes: NumberFromBigint,
  created_at: IsoFromDate,
  expires_at: Schema.NullOr(NumberFromBigint),
  deleted_at: Schema.NullOr(IsoFromDate),
  purged_at: Schema.NullOr(IsoFromDate)
}).pipe(Schema.rename({
  workspace_id: "workspaceId",
  blob_key: "blobKey",
  content_type: "contentType",
  created_at: "createdAt",
  expires_at: "expiresAt",
  deleted_at: "deletedAt",
  purged_at: "purgedAt"
}))

const fileRows = rowDecoder("files", FileRow)

export const PgFileStoreLive = Layer.effect(
  FileStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    FileStore.of({
      insert: (f) =>
        sql`INSERT INTO files (id, workspace_id, blob_key, token, name, content_type, bytes, created_at, expires_at,
            deleted_at, purged_at)
          VALUES (${f.id}, ${f.workspaceId}, ${f.blobKey}, ${f.token}, ${f.name}, ${f.contentType}, ${f.bytes},
            ${f.createdAt}, ${f.expiresAt}, ${f.deletedAt}, ${f.purgedAt})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgFileStore.insert")
        ),
      get: (id) =>
        sql`SELECT * FROM files WHERE id = ${id}`.pipe(
          Effect.flatMap(fileRows.first),
          Effect.orDie,
          withSpan("PgFileStore.get")
        ),
      getMany: (ids) => rowsWithIds(sql, fileRows, ids).pipe(withSpan("PgFileStore.getMany", { attributes: { files: ids.length } })),
      getByToken: (token) =>
        sql`SELECT * FROM files WHERE token = ${token}`.pipe(
          Effect.flatMap(fileRows.first),
          Effect.orDie,
          withSpan("PgFileStore.getByToken")
        ),
      // The first deletion time stands.
      markDeleted: (id, at) =>
        sql`UPDATE files SET deleted_at = COALESCE(deleted_at, ${at}) WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgFileStore.markDeleted")
        ),
      // created_at keeps milliseconds, as expires_at counts them.
      setRetention: (workspaceId, retentionMs) =>
        sql`UPDATE files
          SET expires_at = CASE WHEN ${retentionMs}::bigint IS NULL THEN NULL
            ELSE (extract(epoch FROM created_at) * 1000)::bigint + ${retentionMs}::bigint END
          WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL AND purged_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgFileStore.setRetention")
        ),
      listExpired: (now, limit) =>
        sql`SELECT * FROM files
          WHERE expires_at IS NOT NULL AND expires_at <= ${now} AND deleted_at IS NULL AND purged_at IS NULL
          ORDER BY expires_at, id LIMIT ${limit}`.pipe(
          Effect.flatMap(fileRows.all),
          Effect.orDie,
          withSpan("PgFileStore.listExpired")
        ),
      markPurged: (id, at) =>
        sql`UPDATE files SET purged_at = ${at}
          WHERE id = ${id} AND expires_at <= ${Date.parse(at)} AND deleted_at IS NULL AND purged_at IS NULL
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          withSpan("PgFileStore.markPurged")
        )
    }))
)
