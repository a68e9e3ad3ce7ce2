// Every store port and the Transactor in memory, sharing one database.
import { Layer } from "effect"
import { MemoryCaptionRemovalStoreLive } from "./memory-caption-removal-store.ts"
import { MemoryClipsStoreLive } from "./memory-clips-store.ts"
import { MemoryCashLedgerLive } from "./memory-cash-ledger.ts"
import { MemoryDatabaseLive, MemoryTransactorLive } from "./memory-database.ts"
import { MemoryFileStoreLive } from "./memory-file-store.ts"
import { MemoryIdempotencyStoreLive } from "./memory-idempotency-store.ts"
import { MemoryJobQueueLive } from "./memory-job-queue.ts"
import { MemoryLedgerLive } from "./memory-ledger.ts"
import { MemoryOAuthStoreLive } from "./memory-oauth-store.ts"
import { MemoryOutboxLive } from "./memory-outbox.ts"
import { MemoryProviderKeyStoreLive } from "./memory-provider-key-store.ts"
import { MemoryTemplateStoreLive } from "./memory-template-store.ts"
import { MemoryUploadStoreLive } from "./memory-upload-store.ts"
import { MemoryUserStoreLive } from "./memory-user-store.ts"
import { MemoryVideoStoreLive } from "./memory-video-store.ts"
import { MemoryWebhookSecretStoreLive } from "./memory-webhook-secret-store.ts"
import { MemoryWorkspaceStoreLive } from "./memory-workspace-store.ts"

/** Each build gets its own empty database. */
export const MemoryStoresLive = Layer.mergeAll(
  MemoryTransactorLive,
  MemoryWorkspaceStoreLive,
  MemoryVideoStoreLive,
  MemoryTemplateStoreLive,
  MemoryLedgerLive,
  MemoryCashLedgerLive,
  MemoryJobQueueLive,
  MemoryOutboxLive,
  MemoryIdempotencyStoreLive,
  MemoryFileStoreLive,
  MemoryUploadStoreLive,
  MemoryUserStoreLive,
  MemoryOAuthStoreLive,
  MemoryProviderKeyStoreLive,
  MemoryCaptionRemovalStoreLive,
  MemoryClipsStoreLive,
  MemoryWebhookSecretStoreLive
).pipe(Layer.provide(MemoryDatabaseLive))
