// FileStore on PostgreSQL: table files.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { FileStore, type StoredFile } from "../../domain/ports/file-store.ts"
import { fromBigint, fromBigintOrNull, isoText, isoTextOrNull } from "./pg-values.ts"

interface FileRow {
  readonly id: string
  readonly workspace_id: string
  readonly blob_key: string
  readonly token: string
  readonly name: string
  readonly content_type: string
  readonly bytes: string
  readonly created_at: Date
  readonly expires_at: string | null
  readonly deleted_at: Date | null
  readonly purged_at: Date | null
}

const toFile = (row: FileRow): StoredFile => ({
  id: row.id,
  workspaceId: row.workspace_id,
  blobKey: row.blob_key,
  token: row.token,
  name: row.name,
  contentType: row.content_type,
  bytes: fromBigint(row.bytes),
  createdAt: isoText(row.created_at),
  expiresAt: fromBigintOrNull(row.expires_at),
  deletedAt: isoTextOrNull(row.deleted_at),
  purgedAt: isoTextOrNull(row.purged_at)
})

const oneFile = (rows: ReadonlyArray<FileRow>) => Option.map(Option.fromNullable(rows[0]), toFile)

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
          Effect.withSpan("PgFileStore.insert")
        ),
      get: (id) =>
        sql<FileRow>`SELECT * FROM files WHERE id = ${id}`.pipe(
          Effect.map(oneFile),
          Effect.orDie,
          Effect.withSpan("PgFileStore.get")
        ),
      getByToken: (token) =>
        sql<FileRow>`SELECT * FROM files WHERE token = ${token}`.pipe(
          Effect.map(oneFile),
          Effect.orDie,
          Effect.withSpan("PgFileStore.getByToken")
        ),
      // The first deletion time stands.
      markDeleted: (id, at) =>
        sql`UPDATE files SET deleted_at = COALESCE(deleted_at, ${at}) WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgFileStore.markDeleted")
        ),
      // created_at keeps milliseconds, as expires_at counts them.
      setRetention: (workspaceId, retentionMs) =>
        sql`UPDATE files
          SET expires_at = CASE WHEN ${retentionMs}::bigint IS NULL THEN NULL
            ELSE (extract(epoch FROM created_at) * 1000)::bigint + ${retentionMs}::bigint END
          WHERE workspace_id = ${workspaceId} AND deleted_at IS NULL AND purged_at IS NULL`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgFileStore.setRetention")
        ),
      listExpired: (now, limit) =>
        sql<FileRow>`SELECT * FROM files
          WHERE expires_at IS NOT NULL AND expires_at <= ${now} AND deleted_at IS NULL AND purged_at IS NULL
          ORDER BY expires_at, id LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.map(toFile)),
          Effect.orDie,
          Effect.withSpan("PgFileStore.listExpired")
        ),
      markPurged: (id, at) =>
        sql`UPDATE files SET purged_at = ${at}
          WHERE id = ${id} AND expires_at <= ${Date.parse(at)} AND deleted_at IS NULL AND purged_at IS NULL
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.withSpan("PgFileStore.markPurged")
        )
    }))
)
