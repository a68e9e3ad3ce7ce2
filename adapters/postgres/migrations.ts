// Brings the database to the current schema. Safe to run from several processes at once: see below.
import { Migrator, SqlClient } from "@effect/sql"
import { Effect, Layer } from "effect"
import initial from "./migrations/0001_initial.ts"
import jobLeasesIndex from "./migrations/0002_job_leases_index.ts"
import videoProjects from "./migrations/0003_video_projects.ts"
import uploads from "./migrations/0004_uploads.ts"
import usersAndOAuth from "./migrations/0005_users_and_oauth.ts"
import ledgerLogs from "./migrations/0006_ledger_logs.ts"
import videoLifecycle from "./migrations/0007_video_lifecycle.ts"
import planLimits from "./migrations/0008_plan_limits.ts"
import providerKeys from "./migrations/0009_provider_keys.ts"
import captionRemovals from "./migrations/0010_caption_removals.ts"
import captionEdits from "./migrations/0011_caption_edits.ts"
import idempotencyReservations from "./migrations/0012_idempotency_reservations.ts"
import captionFontFamilies from "./migrations/0013_caption_font_families.ts"
import filePurges from "./migrations/0014_file_purges.ts"
import videoLanguage from "./migrations/0015_video_language.ts"
import videoTranscript from "./migrations/0016_video_transcript.ts"
import workspaceVocabularies from "./migrations/0017_workspace_vocabularies.ts"
import jobClaimers from "./migrations/0018_job_claimers.ts"
import jobTraceParents from "./migrations/0019_job_trace_parents.ts"
import webhookSecrets from "./migrations/0020_webhook_secrets.ts"
import oauthSweep from "./migrations/0021_oauth_sweep.ts"
import workspaceNotices from "./migrations/0022_workspace_notices.ts"
import captionHooksAndPlatforms from "./migrations/0023_caption_hooks_and_platforms.ts"
import videoTrims from "./migrations/0024_video_trims.ts"
import captionEmoji from "./migrations/0025_caption_emoji.ts"
import captionReframes from "./migrations/0026_caption_reframes.ts"
import clips from "./migrations/0027_clips.ts"
import clipsByVideo from "./migrations/0028_clips_by_video.ts"
import faceAnalyses from "./migrations/0029_face_analyses.ts"

const TABLE = "effect_sql_migrations"

/** Any constant both racing processes agree on; it names this lock among the database's advisory locks. */
const MIGRATION_LOCK = 7_203_114_550

/** Every migration by its name (`<number>_<name>`), in order. */
export const MIGRATIONS = { "0001_initial": initial, "0002_job_leases_index": jobLeasesIndex, "0003_video_projects": videoProjects, "0004_uploads": uploads, "0005_users_and_oauth": usersAndOAuth, "0006_ledger_logs": ledgerLogs, "0007_video_lifecycle": videoLifecycle, "0008_plan_limits": planLimits, "0009_provider_keys": providerKeys, "0010_caption_removals": captionRemovals, "0011_caption_edits": captionEdits, "0012_idempotency_reservations": idempotencyReservations, "0013_caption_font_families": captionFontFamilies, "0014_file_purges": filePurges, "0015_video_language": videoLanguage, "0016_video_transcript": videoTranscript, "0017_workspace_vocabularies": workspaceVocabularies, "0018_job_claimers": jobClaimers, "0019_job_trace_parents": jobTraceParents, "0020_webhook_secrets": webhookSecrets, "0021_oauth_sweep": oauthSweep, "0022_workspace_notices": workspaceNotices, "0023_caption_hooks_and_platforms": captionHooksAndPlatforms, "0024_video_trims": videoTrims, "0025_caption_emoji": captionEmoji, "0026_caption_reframes": captionReframes, "0027_clips": clips, "0028_clips_by_video": clipsByVideo, "0029_face_analyses": faceAnalyses }

// PgMigrator.run is this migrator plus a pg_dump step for `schemaDirectory`; without that option the
// plain one needs only SqlClient (PgMigrator.layer also asks for FileSystem, Path and CommandExecutor).
const migrate = Migrator.make({})({ loader: Migrator.fromRecord(MIGRATIONS), table: TABLE })

/**
 * The migrator locks its table while it runs, but it creates that table first with a check-then-create
 * that two fresh processes can both take. So a transaction-scoped advisory lock serializes whole runs,
 * and the table is created (as the migrator would create it) inside the same transaction: the migrator's
 * own check then finds it, and its transaction becomes a savepoint of this one.
 */
export const PgMigrationsLive = Layer.effectDiscard(
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(
      sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.pipe(
        Effect.zipRight(sql`CREATE TABLE IF NOT EXISTS ${sql(TABLE)} (
          migration_id integer primary key,
          created_at timestamp with time zone not null default now(),
          name text not null
        )`),
        Effect.zipRight(migrate)
      )
    ))
)
