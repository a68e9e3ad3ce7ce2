// Records the contract suites store: valid, unique, and built from the domain's own constructors.
import { randomUUID } from "node:crypto"
import type { LedgerEntry } from "../../domain/ports/ledger.ts"
import { newCaptionVideo, type VideoRecord } from "../../domain/video.ts"

export const aVideo = (workspaceId: string, changes: Partial<VideoRecord> = {}): VideoRecord => ({
  ...newCaptionVideo({
    id: randomUUID(),
    workspaceId,
    templateId: -1,
    renderOptions: null,
    webhookUrl: "https://example.com/hooks?secret=1",
    editorToken: randomUUID(),
    source: { url: "https://cdn.example.com/source.mp4" },
    at: "2025-01-02T03:04:05.678Z"
  }),
  ...changes
})

export const anEntry = (workspaceId: string, amount: number, changes: Partial<LedgerEntry> = {}): LedgerEntry => ({
  id: randomUUID(),
  workspaceId,
  key: randomUUID(),
  amount,
  reason: amount < 0 ? "render" : "top_up",
  workKey: null,
  videoId: null,
  at: "2025-01-02T03:04:05.678Z",
  ...changes
})
