// ClipsStore on PostgreSQL: table clips, the options asked and the clips chosen kept whole as JSON.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { ChosenClip, ClipsOptions, ClipsStatus, ClipsStep } from "../../domain/clips.ts"
import { ClipsStore } from "../../domain/ports/clips-store.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, jsonText, jsonTextOrNull } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const ClipsRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  status: ClipsStatus,
  step: ClipsStep,
  created_at: IsoFromDate,
  updated_at: IsoFromDate,
  source_url: Schema.NullOr(Schema.String),
  source_file_id: Schema.NullOr(Schema.String),
  webhook_url: Schema.NullOr(Schema.String),
  options: ClipsOptions,
  duration_seconds: Schema.NullOr(Schema.Number),
  clips: Schema.NullOr(Schema.Array(ChosenClip)),
  credits_charged: Schema.Number,
  refunded: Schema.Boolean,
  refunded_credits: Schema.Number,
  error: Schema.NullOr(Schema.String)
}).pipe(Schema.rename({
  workspace_id: "workspaceId",
  created_at: "createdAt",
  updated_at: "updatedAt",
  source_url: "sourceUrl",
  source_file_id: "sourceFileId",
  webhook_url: "webhookUrl",
  duration_seconds: "durationSeconds",
  credits_charged: "creditsCharged",
  refunded_credits: "refundedCredits"
}))

const clipsRows = rowDecoder("clips", ClipsRow)

export const PgClipsStoreLive = Layer.effect(
  ClipsStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    ClipsStore.of({
      insert: (r) =>
        sql`INSERT INTO clips (id, workspace_id, status, step, created_at, updated_at, source_url, source_file_id,
            webhook_url, options, duration_seconds, clips, credits_charged, refunded, refunded_credits, error)
          VALUES (${r.id}, ${r.workspaceId}, ${r.status}, ${r.step}, ${r.createdAt}, ${r.updatedAt}, ${r.sourceUrl},
            ${r.sourceFileId}, ${r.webhookUrl}, ${jsonText(r.options)}, ${r.durationSeconds}, ${jsonTextOrNull(r.clips)},
            ${r.creditsCharged}, ${r.refunded}, ${r.refundedCredits}, ${r.error})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgClipsStore.insert")
        ),
      get: (workspaceId, id) =>
        sql`SELECT * FROM clips WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(clipsRows.first),
          Effect.orDie,
          withSpan("PgClipsStore.get")
        ),
      getById: (id) =>
        sql`SELECT * FROM clips WHERE id = ${id}`.pipe(Effect.flatMap(clipsRows.first), Effect.orDie, withSpan("PgClipsStore.getById")),
      getForUpdate: (id) =>
        sql`SELECT * FROM clips WHERE id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(clipsRows.first),
          Effect.orDie,
          withSpan("PgClipsStore.getForUpdate")
        ),
      update: (r) =>
        sql`UPDATE clips SET status = ${r.status}, step = ${r.step}, updated_at = ${r.updatedAt},
            source_file_id = ${r.sourceFileId}, duration_seconds = ${r.durationSeconds}, clips = ${jsonTextOrNull(r.clips)},
            credits_charged = ${r.creditsCharged}, refunded = ${r.refunded}, refunded_credits = ${r.refundedCredits},
            error = ${r.error}
          WHERE id = ${r.id}`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgClipsStore.update")),
      // Containment, which the clips_by_video index answers.
      findByVideo: (workspaceId, videoId) =>
        sql`SELECT * FROM clips WHERE workspace_id = ${workspaceId} AND clips @> ${jsonText([{ videoId }])}::jsonb LIMIT 1`.pipe(
          Effect.flatMap(clipsRows.first),
          Effect.orDie,
          withSpan("PgClipsStore.findByVideo")
        )
    }))
)
