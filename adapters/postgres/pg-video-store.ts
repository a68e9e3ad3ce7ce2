// VideoStore on PostgreSQL: tables videos, video_words, video_projects and video_caption_edits. Lists page by keyset on (created_at, id).
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { CaptionEdits, StyleAdjustments } from "../../domain/caption-edits.ts"
import type { TimedWord } from "../../domain/captions.ts"
import type { GeneratedProject } from "../../domain/generated-project.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import type { RenderOptions } from "../../domain/rules.ts"
import type { ExportState, VideoRecord } from "../../domain/video.ts"
import { isoText, isoTextOrNull, jsonText, jsonTextOrNull } from "./pg-values.ts"
import { decodeListCursor, encodeListCursor } from "../video-list-cursor.ts"

interface CaptionEditsRow {
  readonly revision: number
  readonly line_starts: ReadonlyArray<number> | null
  readonly style: StyleAdjustments
}

interface VideoRow {
  readonly id: string
  readonly workspace_id: string
  readonly kind: VideoRecord["kind"]
  readonly status: VideoRecord["status"]
  readonly step: VideoRecord["step"]
  readonly render: boolean
  readonly render_options: RenderOptions | null
  readonly template_id: number
  readonly created_at: Date
  readonly updated_at: Date
  readonly editor_token: string
  readonly webhook_url: string | null
  readonly work: number
  readonly generated: boolean
  readonly source_url: string | null
  readonly source_file_id: string | null
  readonly video_file_id: string | null
  readonly thumbnail_file_id: string | null
  readonly duration_seconds: number | null
  readonly width: number | null
  readonly height: number | null
  readonly error: string | null
  readonly export: ExportState | null
  readonly media_deleted_at: Date | null
  readonly replaced_file_ids: ReadonlyArray<string>
}

const toVideo = (row: VideoRow): VideoRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  kind: row.kind,
  status: row.status,
  step: row.step,
  render: row.render,
  renderOptions: row.render_options,
  templateId: row.template_id,
  createdAt: isoText(row.created_at),
  updatedAt: isoText(row.updated_at),
  editorToken: row.editor_token,
  webhookUrl: row.webhook_url,
  work: row.work,
  generated: row.generated,
  sourceUrl: row.source_url,
  sourceFileId: row.source_file_id,
  videoFileId: row.video_file_id,
  thumbnailFileId: row.thumbnail_file_id,
  durationSeconds: row.duration_seconds,
  width: row.width,
  height: row.height,
  error: row.error,
  export: row.export,
  mediaDeletedAt: isoTextOrNull(row.media_deleted_at),
  replacedFileIds: row.replaced_file_ids
})

const oneVideo = (rows: ReadonlyArray<VideoRow>) => Option.map(Option.fromNullable(rows[0]), toVideo)


export const PgVideoStoreLive = Layer.effect(
  VideoStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    VideoStore.of({
      insert: (v) =>
        sql`INSERT INTO videos (id, workspace_id, kind, status, step, render, render_options, template_id, created_at,
            updated_at, editor_token, webhook_url, work, generated, source_url, source_file_id, video_file_id,
            thumbnail_file_id, duration_seconds, width, height, error, export, media_deleted_at, replaced_file_ids)
          VALUES (${v.id}, ${v.workspaceId}, ${v.kind}, ${v.status}, ${v.step}, ${v.render},
            ${jsonTextOrNull(v.renderOptions)}, ${v.templateId}, ${v.createdAt},
            ${v.updatedAt}, ${v.editorToken}, ${v.webhookUrl}, ${v.work}, ${v.generated}, ${v.sourceUrl},
            ${v.sourceFileId}, ${v.videoFileId}, ${v.thumbnailFileId}, ${v.durationSeconds}, ${v.width}, ${v.height},
            ${v.error}, ${jsonTextOrNull(v.export)}, ${v.mediaDeletedAt}, ${jsonText(v.replacedFileIds)})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgVideoStore.insert")
        ),
      get: (workspaceId, id) =>
        sql<VideoRow>`SELECT * FROM videos WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.map(oneVideo),
          Effect.orDie,
          Effect.withSpan("PgVideoStore.get")
        ),
      getById: (id) =>
        sql<VideoRow>`SELECT * FROM videos WHERE id = ${id}`.pipe(
          Effect.map(oneVideo),
          Effect.orDie,
          Effect.withSpan("PgVideoStore.getById")
        ),
      getForUpdate: (id) =>
        sql<VideoRow>`SELECT * FROM videos WHERE id = ${id} FOR UPDATE`.pipe(
          Effect.map(oneVideo),
          Effect.orDie,
          Effect.withSpan("PgVideoStore.getForUpdate")
        ),
      findByEditorToken: (token) =>
        sql<VideoRow>`SELECT * FROM videos WHERE editor_token = ${token}`.pipe(
          Effect.map(oneVideo),
          Effect.orDie,
          Effect.withSpan("PgVideoStore.findByEditorToken")
        ),
      update: (v) =>
        sql`UPDATE videos SET workspace_id = ${v.workspaceId}, kind = ${v.kind}, status = ${v.status}, step = ${v.step},
            render = ${v.render}, render_options = ${jsonTextOrNull(v.renderOptions)},
            template_id = ${v.templateId}, created_at = ${v.createdAt}, updated_at = ${v.updatedAt},
            editor_token = ${v.editorToken}, webhook_url = ${v.webhookUrl}, work = ${v.work},
            generated = ${v.generated}, source_url = ${v.sourceUrl}, source_file_id = ${v.sourceFileId},
            video_file_id = ${v.videoFileId}, thumbnail_file_id = ${v.thumbnailFileId},
            duration_seconds = ${v.durationSeconds}, width = ${v.width}, height = ${v.height}, error = ${v.error},
            export = ${jsonTextOrNull(v.export)}, media_deleted_at = ${v.mediaDeletedAt},
            replaced_file_ids = ${jsonText(v.replacedFileIds)}
          WHERE id = ${v.id}`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgVideoStore.update")),
      list: ({ cursor, limit, status, workspaceId }) => {
        // A cursor this adapter did not make points past the end: an empty page rather than a restart.
        const after = cursor === undefined ? Option.some(undefined) : decodeListCursor(cursor)
        if (Option.isNone(after)) {
          return Effect.succeed({ items: [], nextCursor: null }).pipe(Effect.withSpan("PgVideoStore.list"))
        }
        const conditions = [
          sql`workspace_id = ${workspaceId}`,
          ...(status === undefined ? [] : [sql`status = ${status}`]),
          ...(after.value === undefined
            ? []
            : [sql`(created_at, id) < (${after.value.createdAt}::timestamptz, ${after.value.id})`])
        ]
        // One row past the page says whether another page follows.
        return sql<VideoRow>`SELECT * FROM videos WHERE ${sql.and(conditions)}
          ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`.pipe(
          Effect.map((rows) => {
            const items = rows.slice(0, limit).map(toVideo)
            const last = items[items.length - 1]
            return { items, nextCursor: rows.length > limit && last !== undefined ? encodeListCursor(last) : null }
          }),
          Effect.orDie,
          Effect.withSpan("PgVideoStore.list")
        )
      },
      saveWords: (videoId, words) =>
        sql`INSERT INTO video_words (video_id, words) VALUES (${videoId}, ${jsonText(words)})
          ON CONFLICT (video_id) DO UPDATE SET words = EXCLUDED.words`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgVideoStore.saveWords")
        ),
      getWords: (videoId) =>
        sql<{ readonly words: ReadonlyArray<TimedWord> }>`SELECT words FROM video_words WHERE video_id = ${videoId}`
          .pipe(
            Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.words)),
            Effect.orDie,
            Effect.withSpan("PgVideoStore.getWords")
          ),
      saveProject: (videoId, project) =>
        sql`INSERT INTO video_projects (video_id, project) VALUES (${videoId}, ${jsonText(project)})
          ON CONFLICT (video_id) DO UPDATE SET project = EXCLUDED.project`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgVideoStore.saveProject")
        ),
      getProject: (videoId) =>
        sql<{ readonly project: GeneratedProject }>`SELECT project FROM video_projects WHERE video_id = ${videoId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.project)),
          Effect.orDie,
          Effect.withSpan("PgVideoStore.getProject")
        ),
      saveCaptionEdits: (videoId, edits) =>
        sql`INSERT INTO video_caption_edits (video_id, revision, line_starts, style)
          VALUES (${videoId}, ${edits.revision}, ${jsonTextOrNull(edits.lineStarts)}, ${jsonText(edits.style)})
          ON CONFLICT (video_id) DO UPDATE SET revision = EXCLUDED.revision, line_starts = EXCLUDED.line_starts, style = EXCLUDED.style`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgVideoStore.saveCaptionEdits")
        ),
      getCaptionEdits: (videoId) =>
        sql<CaptionEditsRow>`SELECT revision, line_starts, style FROM video_caption_edits WHERE video_id = ${videoId}`.pipe(
          Effect.map((rows) =>
            Option.map(Option.fromNullable(rows[0]), (row): CaptionEdits => ({ revision: row.revision, lineStarts: row.line_starts, style: row.style }))
          ),
          Effect.orDie,
          Effect.withSpan("PgVideoStore.getCaptionEdits")
        )
    }))
)
