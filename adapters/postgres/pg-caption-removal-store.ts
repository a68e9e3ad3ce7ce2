// CaptionRemovalStore on PostgreSQL: table caption_removals.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import type { CaptionRemovalRecord } from "../../domain/caption-removal.ts"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import type { PixelBox, RemovalTarget, TextRegion } from "../../domain/text-regions.ts"
import { isoText, jsonTextOrNull } from "./pg-values.ts"

interface CaptionRemovalRow {
  readonly id: string
  readonly workspace_id: string
  readonly status: CaptionRemovalRecord["status"]
  readonly step: CaptionRemovalRecord["step"]
  readonly created_at: Date
  readonly updated_at: Date
  readonly source_url: string | null
  readonly source_file_id: string | null
  readonly result_file_id: string | null
  readonly webhook_url: string | null
  readonly target: RemovalTarget
  readonly region: PixelBox | null
  readonly duration_seconds: number | null
  readonly width: number | null
  readonly height: number | null
  readonly regions: ReadonlyArray<TextRegion> | null
  readonly text_remaining_share: number | null
  readonly credits_charged: number
  readonly refunded: boolean
  readonly refunded_credits: number
  readonly error: string | null
}

const toRemoval = (row: CaptionRemovalRow): CaptionRemovalRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  status: row.status,
  step: row.step,
  createdAt: isoText(row.created_at),
  updatedAt: isoText(row.updated_at),
  sourceUrl: row.source_url,
  sourceFileId: row.source_file_id,
  resultFileId: row.result_file_id,
  webhookUrl: row.webhook_url,
  options: { target: row.target, region: row.region },
  durationSeconds: row.duration_seconds,
  width: row.width,
  height: row.height,
  regions: row.regions,
  textRemainingShare: row.text_remaining_share,
  creditsCharged: row.credits_charged,
  refunded: row.refunded,
  refundedCredits: row.refunded_credits,
  error: row.error
})

const oneRemoval = (rows: ReadonlyArray<CaptionRemovalRow>) => Option.map(Option.fromNullable(rows[0]), toRemoval)

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
          Effect.withSpan("PgCaptionRemovalStore.insert")
        ),
      get: (workspaceId, id) =>
        sql<CaptionRemovalRow>`SELECT * FROM caption_removals WHERE id = ${id} AND workspace_id = ${workspaceId}`.pipe(
          Effect.map(oneRemoval),
          Effect.orDie,
          Effect.withSpan("PgCaptionRemovalStore.get")
        ),
      getById: (id) =>
        sql<CaptionRemovalRow>`SELECT * FROM caption_removals WHERE id = ${id}`.pipe(
          Effect.map(oneRemoval),
          Effect.orDie,
          Effect.withSpan("PgCaptionRemovalStore.getById")
        ),
      getForUpdate: (id) =>
        sql<CaptionRemovalRow>`SELECT * FROM caption_removals WHERE id = ${id} FOR UPDATE`.pipe(
          Effect.map(oneRemoval),
          Effect.orDie,
          Effect.withSpan("PgCaptionRemovalStore.getForUpdate")
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
          WHERE id = ${r.id}`.pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgCaptionRemovalStore.update"))
    }))
)
