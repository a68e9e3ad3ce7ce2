// Every store port and the Transactor on PostgreSQL, over one connection pool. Building it migrates the
// database first.
import { PgClient } from "@effect/sql-pg"
import { type Duration, Layer, type Redacted } from "effect"
import { PgMigrationsLive } from "./migrations.ts"
import { PgCaptionRemovalStoreLive } from "./pg-caption-removal-store.ts"
import { PgClipsStoreLive } from "./pg-clips-store.ts"
import { PgCashLedgerLive } from "./pg-cash-ledger.ts"
import { PgFileStoreLive } from "./pg-file-store.ts"
import { PgIdempotencyStoreLive } from "./pg-idempotency-store.ts"
import { PgJobQueueLive } from "./pg-job-queue.ts"
import { PgLedgerLive } from "./pg-ledger.ts"
import { PgOAuthStoreLive } from "./pg-oauth-store.ts"
import { PgOutboxLive } from "./pg-outbox.ts"
import { acquirePgPool } from "./pg-pool.ts"
import { PgProviderKeyStoreLive } from "./pg-provider-key-store.ts"
import { PgTemplateStoreLive } from "./pg-template-store.ts"
import { PgCachedWorkspaceStoreLive } from "./pg-token-cache.ts"
import { PgTransactorLive } from "./pg-transactor.ts"
import { PgUploadStoreLive } from "./pg-upload-store.ts"
import { PgUserStoreLive } from "./pg-user-store.ts"
import { PgVideoStoreLive } from "./pg-video-store.ts"
import { PgWebhookSecretStoreLive } from "./pg-webhook-secret-store.ts"

export interface PgStoresOptions {
  readonly url: Redacted.Redacted<string>
  readonly maxConnections?: number | undefined
  /** How often the job queue's LISTEN connection is checked (default 10 s). */
  readonly listenHeartbeat?: Duration.DurationInput | undefined
}

export const PgClientLive = (url: Redacted.Redacted<string>, maxConnections?: number) =>
  PgClient.layerFromPool({ acquire: acquirePgPool({ url, maxConnections, applicationName: "reelwright" }), applicationName: "reelwright" })

/** The pool, migrated: the stores are built only once the schema is current. */
const migratedClient = (options: PgStoresOptions) =>
  PgMigrationsLive.pipe(Layer.provideMerge(PgClientLive(options.url, options.maxConnections)))

export const PgStoresLive = (options: PgStoresOptions) =>
  Layer.mergeAll(
    PgTransactorLive,
    PgCachedWorkspaceStoreLive,
    PgVideoStoreLive,
    PgTemplateStoreLive,
    PgLedgerLive,
    PgCashLedgerLive,
    PgJobQueueLive({ listenHeartbeat: options.listenHeartbeat }),
    PgOutboxLive,
    PgIdempotencyStoreLive,
    PgFileStoreLive,
    PgUploadStoreLive,
    PgUserStoreLive,
    PgOAuthStoreLive,
    PgProviderKeyStoreLive,
    PgCaptionRemovalStoreLive,
    PgClipsStoreLive,
    PgWebhookSecretStoreLive
  ).pipe(Layer.provideMerge(migratedClient(options)))
