// Every store contract against the in-memory adapters; each suite builds its own empty database.
import { Effect, Layer } from "effect"
import { MemoryDatabase, MemoryDatabaseLive } from "../../adapters/memory/memory-database.ts"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { MemoryProviderKeyStoreLive } from "../../adapters/memory/memory-provider-key-store.ts"
import { MemoryWorkspaceStoreLive } from "../../adapters/memory/memory-workspace-store.ts"
import { captionRemovalStoreContract } from "./caption-removal-store.contract.ts"
import { clipsStoreContract } from "./clips-store.contract.ts"
import { cashLedgerContract } from "./cash-ledger.contract.ts"
import { fileStoreContract } from "./file-store.contract.ts"
import { idempotencyStoreContract } from "./idempotency-store.contract.ts"
import { jobQueueContract } from "./job-queue.contract.ts"
import { ledgerContract } from "./ledger.contract.ts"
import { oauthStoreContract } from "./oauth-store.contract.ts"
import { outboxContract } from "./outbox.contract.ts"
import { providerKeyStoreContract } from "./provider-key-store.contract.ts"
import { templateStoreContract } from "./template-store.contract.ts"
import { transactorContract } from "./transactor.contract.ts"
import { uploadStoreContract } from "./upload-store.contract.ts"
import { userStoreContract } from "./user-store.contract.ts"
import { videoStoreContract } from "./video-store.contract.ts"
import { webhookSecretStoreContract } from "./webhook-secret-store.contract.ts"
import { workspaceStoreContract } from "./workspace-store.contract.ts"

workspaceStoreContract("memory", MemoryStoresLive)
videoStoreContract("memory", MemoryStoresLive)
templateStoreContract("memory", MemoryStoresLive)
ledgerContract("memory", MemoryStoresLive)
cashLedgerContract("memory", MemoryStoresLive)
jobQueueContract("memory", MemoryStoresLive)
outboxContract("memory", MemoryStoresLive)
idempotencyStoreContract("memory", MemoryStoresLive)
fileStoreContract("memory", MemoryStoresLive)
uploadStoreContract("memory", MemoryStoresLive)
userStoreContract("memory", MemoryStoresLive)
oauthStoreContract("memory", MemoryStoresLive)
transactorContract("memory", MemoryStoresLive)
captionRemovalStoreContract("memory", MemoryStoresLive)
clipsStoreContract("memory", MemoryStoresLive)
webhookSecretStoreContract("memory", MemoryStoresLive)
providerKeyStoreContract(
  "memory",
  Layer.merge(MemoryProviderKeyStoreLive, MemoryWorkspaceStoreLive).pipe(Layer.provideMerge(MemoryDatabaseLive)),
  Effect.flatMap(MemoryDatabase, (db) => db.read((t) => [...t.providerKeys.values()]))
)
