// CaptionRemovalStore on PostgreSQL: table caption_removals.
import { SqlClient, type SqlConnection } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { type CaptionRemovalRecord, RemovalStatus, RemovalStep } from "../../domain/caption-removal.ts"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import { PixelBox, RemovalTarget, TextRegion } from "../../domain/text-regions.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, jsonTextOrNull } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** The columns under the record's names; `target` and `region` are still to gather into its `options`. */
const CaptionRemovalRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  status: RemovalStatus,
  step: RemovalStep,
  created_at: IsoFromDate,
  updated_at: IsoFromDate,
  source_url: Schema.NullOr(Schema.String),
  source_file_id: Schema.NullOr(Schema.String),
  result_file_id: Schema.NullOr(Schema.String),
  webhook_url: Schema.NullOr(Schema.String),
  target: RemovalTarget,
  region: Schema.NullOr(PixelBox),
  duration_seconds: Schema.NullOr(Schema.Number),
  width: Schema.NullOr(Schema.Number),
  height: Schema.NullOr(Schema.Number),
  regions: Schema.NullOr(Schema.Array(TextRegion)),
  text_remaining_share: Schema.NullOr(Schema.Number),
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
  result_file_id: "resultFileId",
  webhook_url: "webhookUrl",
  duration_seconds: "durationSeconds",
  text_remaining_share: "textRemainingShare",
  credits_charged: "creditsCharged",
  refunded_credits: "refundedCredits"
}))

const removalRows = rowDecoder("caption_removals", CaptionRemovalRow)

const oneRemoval = (rows: ReadonlyArray<SqlConnection.Row>) =>
  Effect.map(
    removalRows.first(rows),
    Option.map(({ region, target, ...removal }): CaptionRemovalRecord => ({ ...removal, options: { target, region } }))
  )

export const PgCaptionRemovalStoreLive = Layer.effect(
  CaptionRemovalStore,
  Effect.map(SqlClient.SqlClient, (sql) =>
    CaptionRemovalStore.of({
      insert: (r) =>
        sql`INSERT INTO caption_removals (id, workspace_id, status, step, created_at, updated_at, source_url,
            source_file_id, result_file_id, webhook_url, target, region, duration_seconds, width, height, regions,
            text_remaining_share, credits_charged, refunded, refunded_credits, error)
          VALUES (${r.id}, ${r.workspaceId}, ${r.status}, ${r.step}, ${r.createdAt}, ${r.updatedAt}, ${r.sourceUrl},
            ${r.sourceFileId}, ${r.resultFileId}, ${r.webhookUrl}, ${r.options.target},
            ${jsonTextOrNull(r.options.region)}, ${r.durationSeconds}, ${r.width}, ${r.height},
            ${jsonTextOrNull(r.regions)}, ${r.textRemainingShare}, ${r.creditsCharged}, ${r.refunded},
            ${r.refundedCredits}, ${r.error})`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgCaptionRemovalStore.insert")
        ),
      get: (workspaceId, id) =>
        sql`SELECT * FROM caption_removals WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.flatMap(oneRemoval),
          Effect.orDie,
          withSpan("PgCaptionRemovalStore.get")
        ),
      getById: (id) =>
        sql`SELECT * FROM caption_removals WHERE id = ${id}`.pipe(
          Effect.flatMap(oneRemoval),
          Effect.orDie,
          withSpan("PgCaptionRemovalStore.getById")
        ),
      getForUpdate: (id) =>
        sql`SELECT * FROM caption_removals WHERE id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(oneRemoval),
          Effect.orDie,
          withSpan("PgCaptionRemovalStore.getForUpdate")
        ),
      update: (r) =>
        sql`UPDATE caption_removals SET workspace_id = ${r.workspaceId}, status = ${r.status}, step = ${r.step},
            created_at = ${r.createdAt}, updated_at = ${r.updatedAt}, source_url = ${r.sourceUrl},
            source_file_id = ${r.sourceFileId}, result_file_id = ${r.resultFileId}, webhook_url = ${r.webhookUrl},
            target = ${r.options.target}, region = ${jsonTextOrNull(r.options.region)},
            duration_seconds = ${r.durationSeconds}, width = ${r.width}, height = ${r.height},
            regions = ${jsonTextOrNull(r.regions)}, text_remaining_share = ${r.textRemainingShare},
            credits_charged = ${r.creditsCharged}, refunded = ${r.refunded},
            refunded_credits = ${r.refundedCredits}, error = ${r.error}
          WHERE id = ${r.id}`.pipe(Effect.asVoid, Effect.orDie, withSpan("PgCaptionRemovalStore.update"))
    }))
)
