// VideoStore on PostgreSQL: tables videos, video_words, video_projects, video_caption_edits and video_face_analyses. Lists page by keyset on (created_at, id).
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { LineStarts, StyleAdjustments } from "../../domain/caption-edits.ts"
import { EmojiMode } from "../../domain/caption-emoji.ts"
import { EmphasisMode } from "../../domain/caption-emphasis.ts"
import { CaptionHook } from "../../domain/caption-hook.ts"
import { TimedWord } from "../../domain/captions.ts"
import { GeneratedProject } from "../../domain/generated-project.ts"
import { Language } from "../../domain/languages.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { RenderOptions } from "../../domain/rules.ts"
import { Platform } from "../../domain/safe-zones.ts"
import { FaceAnalysis, Framing, ReframeSettings } from "../../domain/reframe.ts"
import { Cut, TrimSettings } from "../../domain/trim.ts"
import { ExportState, Status, Step, VideoKind } from "../../domain/video.ts"
import { rowDecoder, rowsWithIds } from "./pg-rows.ts"
import { IsoFromDate, jsonText, jsonTextOrNull } from "./pg-values.ts"
import { decodeListCursor, encodeListCursor } from "../video-list-cursor.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const VideoRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  kind: VideoKind,
  status: Status,
  step: Step,
  render: Schema.Boolean,
  render_options: Schema.NullOr(RenderOptions),
  template_id: Schema.Number,
  created_at: IsoFromDate,
  updated_at: IsoFromDate,
  editor_token: Schema.String,
  webhook_url: Schema.NullOr(Schema.String),
  work: Schema.Number,
  generated: Schema.Boolean,
  source_url: Schema.NullOr(Schema.String),
  source_file_id: Schema.NullOr(Schema.String),
  video_file_id: Schema.NullOr(Schema.String),
  thumbnail_file_id: Schema.NullOr(Schema.String),
  duration_seconds: Schema.NullOr(Schema.Number),
  cut_seconds: Schema.Number,
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  export: Schema.NullOr(ExportState),
  media_deleted_at: Schema.NullOr(IsoFromDate),
  replaced_file_ids: Schema.Array(Schema.String),
  language: Schema.NullOr(Language),
  transcript: Schema.NullOr(Schema.String)
}).pipe(Schema.rename({
  workspace_id: "workspaceId",
  render_options: "renderOptions",
  template_id: "templateId",
  created_at: "createdAt",
  updated_at: "updatedAt",
  editor_token: "editorToken",
  webhook_url: "webhookUrl",
  source_url: "sourceUrl",
  source_file_id: "sourceFileId",
  video_file_id: "videoFileId",
  thumbnail_file_id: "thumbnailFileId",
  duration_seconds: "durationSeconds",
  cut_seconds: "cutSeconds",
  media_deleted_at: "mediaDeletedAt",
  replaced_file_ids: "replacedFileIds"
}))

const CaptionEditsRow = Schema.Struct({
  revision: Schema.Number,
  line_starts: LineStarts,
  style: StyleAdjustments,
  hook: Schema.NullOr(CaptionHook),
  platform: Platform,
  emphasis: EmphasisMode,
  emoji: EmojiMode,
  trim: Schema.NullOr(TrimSettings),
  cuts: Schema.Array(Cut),
  reframe: Schema.NullOr(ReframeSettings),
  framing: Schema.NullOr(Framing)
}).pipe(Schema.rename({ line_starts: "lineStarts" }))

const videoRows = rowDecoder("videos", VideoRow)
const captionEditsRows = rowDecoder("video_caption_edits", CaptionEditsRow)

/**
 * A JSON document kept apart from the record, one per video (`table`'s `column`, keyed by video_id), replaced
 * whole at each save. Read by video id without selecting it: the defects of these rows name no row.
 */
const videoDocument = <A, I>(sql: SqlClient.SqlClient, table: string, column: string, schema: Schema.Schema<A, I>, spanName: string) => {
  // The row's column is `value` once decoded; a defect names the column as it is in the table.
  const rows = rowDecoder(table, Schema.Struct({ value: Schema.propertySignature(schema).pipe(Schema.fromKey(column)) }))
  return {
    save: (videoId: string, value: A) =>
      sql`INSERT INTO ${sql(table)} (video_id, ${sql(column)}) VALUES (${videoId}, ${jsonText(value)})
        ON CONFLICT (video_id) DO UPDATE SET ${sql(column)} = EXCLUDED.${sql(column)}`.pipe(
        Effect.asVoid,
        Effect.orDie,
        withSpan(`PgVideoStore.save${spanName}`)
      ),
    get: (videoId: string) =>
      sql`SELECT ${sql(column)} FROM ${sql(table)} WHERE video_id = ${videoId}`.pipe(
        Effect.flatMap(rows.first),
        Effect.map(Option.map((row) => row.value)),
        Effect.orDie,
        withSpan(`PgVideoStore.get${spanName}`)
      )
  }
}

export const PgVideoStoreLive = Layer.effect(
  VideoStore,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const words = videoDocument(sql, "video_words", "words", Schema.Array(TimedWord), "Words")
    const projects = videoDocument(sql, "video_projects", "project", GeneratedProject, "Project")
    const faceAnalyses = videoDocument(sql, "video_face_analyses", "analysis", FaceAnalysis, "FaceAnalysis")
    return VideoStore.of({
      insert: (v) =>
        sql`INSERT INTO videos (id, workspace_id, kind, status, step, render, render_options, template_id, created_at,
            updated_at, editor_token, webhook_url, work, generated, source_url, source_file_id, video_file_id,
            thumbnail_file_id, duration_seconds, cut_seconds, width, height, error, export, media_deleted_at, replaced_file_ids, language, transcript)
          VALUES (${v.id}, ${v.workspaceId}, ${v.kind}, ${v.status}, ${v.step}, ${v.render},
            ${jsonTextOrNull(v.renderOptions)}, ${v.templateId}, ${v.createdAt},
            ${v.updatedAt}, ${v.editorToken}, ${v.webhookUrl}, ${v.work}, ${v.generated}, ${v.sourceUrl},
            ${v.sourceFileId}, ${v.videoFileId}, ${v.thumbnailFileId}, ${v.durationSeconds}, ${v.cutSeconds}, ${v.width}, ${v.height},
            ${v.error}, ${jsonTextOrNull(v.export)}, ${v.mediaDeletedAt}, ${jsonText(v.replacedFileIds)}, ${v.language}, ${v.transcript})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgVideoStore.insert")
        ),
      get: (workspaceId, id) =>
        sql`SELECT * FROM videos WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(videoRows.first),
          Effect.orDie,
          withSpan("PgVideoStore.get", { captureStackTrace: false })
        ),
      getById: (id) =>
        sql`SELECT * FROM videos WHERE id = ${id}`.pipe(
          Effect.flatMap(videoRows.first),
          Effect.orDie,
          withSpan("PgVideoStore.getById")
        ),
      getManyById: (ids) =>
        rowsWithIds(sql, videoRows, ids).pipe(withSpan("PgVideoStore.getManyById", { attributes: { videos: ids.length } })),
      getForUpdate: (id) =>
        sql`SELECT * FROM videos WHERE id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(videoRows.first),
          Effect.orDie,
          withSpan("PgVideoStore.getForUpdate")
        ),
      findByEditorToken: (token) =>
        sql`SELECT * FROM videos WHERE editor_token = ${token}`.pipe(
          Effect.flatMap(videoRows.first),
          Effect.orDie,
          withSpan("PgVideoStore.findByEditorToken")
        ),
      update: (v) =>
        sql`UPDATE videos SET workspace_id = ${v.workspaceId}, kind = ${v.kind}, status = ${v.status}, step = ${v.step},
            render = ${v.render}, render_options = ${jsonTextOrNull(v.renderOptions)},
            template_id = ${v.templateId}, created_at = ${v.createdAt}, updated_at = ${v.updatedAt},
            editor_token = ${v.editorToken}, webhook_url = ${v.webhookUrl}, work = ${v.work},
            generated = ${v.generated}, source_url = ${v.sourceUrl}, source_file_id = ${v.sourceFileId},
            video_file_id = ${v.videoFileId}, thumbnail_file_id = ${v.thumbnailFileId},
            duration_seconds = ${v.durationSeconds}, cut_seconds = ${v.cutSeconds}, width = ${v.width}, height = ${v.height}, error = ${v.error},
            export = ${jsonTextOrNull(v.export)}, media_deleted_at = ${v.mediaDeletedAt},
            replaced_file_ids = ${jsonText(v.replacedFileIds)}, language = ${v.language}, transcript = ${v.transcript}
          WHERE id = ${v.id}`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgVideoStore.update")),
      list: ({ cursor, limit, status, workspaceId }) => {
        // A cursor this adapter did not make points past the end: an empty page rather than a restart.
        const after = cursor === undefined ? Option.some(undefined) : decodeListCursor(cursor)
        if (Option.isNone(after)) {
          return Effect.succeed({ items: [], nextCursor: null }).pipe(withSpan("PgVideoStore.list"))
        }
        const conditions = [
          sql`workspace_id = ${workspaceId}`,
          ...(status === undefined ? [] : [sql`status = ${status}`]),
          ...(after.value === undefined
            ? []
            : [sql`(created_at, id) < (${after.value.createdAt}::timestamptz, ${after.value.id})`])
        ]
        // One row past the page says whether another page follows.
        return sql`SELECT * FROM videos WHERE ${sql.and(conditions)}
          ORDER BY created_at DESC, id DESC LIMIT ${limit + 1}`.pipe(
          Effect.flatMap((rows) =>
            Effect.map(videoRows.all(rows.slice(0, limit)), (items) => {
              const last = items[items.length - 1]
              return { items, nextCursor: rows.length > limit && last !== undefined ? encodeListCursor(last) : null }
            })
          ),
          Effect.orDie,
          withSpan("PgVideoStore.list")
        )
      },
      saveWords: words.save,
      getWords: words.get,
      saveProject: projects.save,
      getProject: projects.get,
      saveCaptionEdits: (videoId, edits) =>
        sql`INSERT INTO video_caption_edits (video_id, revision, line_starts, style, hook, platform, emphasis, emoji, trim, cuts, reframe, framing)
          VALUES (${videoId}, ${edits.revision}, ${jsonTextOrNull(edits.lineStarts)}, ${jsonText(edits.style)},
            ${jsonTextOrNull(edits.hook)}, ${edits.platform}, ${edits.emphasis}, ${edits.emoji}, ${jsonTextOrNull(edits.trim)}, ${jsonText(edits.cuts)},
            ${jsonTextOrNull(edits.reframe)}, ${jsonTextOrNull(edits.framing)})
          ON CONFLICT (video_id) DO UPDATE SET revision = EXCLUDED.revision, line_starts = EXCLUDED.line_starts, style = EXCLUDED.style,
            hook = EXCLUDED.hook, platform = EXCLUDED.platform, emphasis = EXCLUDED.emphasis, emoji = EXCLUDED.emoji, trim = EXCLUDED.trim, cuts = EXCLUDED.cuts,
            reframe = EXCLUDED.reframe, framing = EXCLUDED.framing`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgVideoStore.saveCaptionEdits")
        ),
      getCaptionEdits: (videoId) =>
        sql`SELECT revision, line_starts, style, hook, platform, emphasis, emoji, trim, cuts, reframe, framing FROM video_caption_edits WHERE video_id = ${videoId}`.pipe(
          Effect.flatMap(captionEditsRows.first),
          Effect.orDie,
          withSpan("PgVideoStore.getCaptionEdits")
        ),
      saveFaceAnalysis: faceAnalyses.save,
      getFaceAnalysis: faceAnalyses.get
    })
  })
)
