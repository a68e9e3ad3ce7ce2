// Every store contract against the in-memory adapters; each suite builds its own empty database.
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { cashLedgerContract } from "./cash-ledger.contract.ts"
import { fileStoreContract } from "./file-store.contract.ts"
import { idempotencyStoreContract } from "./idempotency-store.contract.ts"
import { jobQueueContract } from "./job-queue.contract.ts"
import { ledgerContract } from "./ledger.contract.ts"
import { oauthStoreContract } from "./oauth-store.contract.ts"
import { outboxContract } from "./outbox.contract.ts"
import { templateStoreContract } from "./template-store.contract.ts"
import { transactorContract } from "./transactor.contract.ts"
import { uploadStoreContract } from "./upload-store.contract.ts"
import { userStoreContract } from "./user-store.contract.ts"
import { videoStoreContract } from "./video-store.contract.ts"
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
