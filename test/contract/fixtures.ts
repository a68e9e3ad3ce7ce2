// Records the contract suites store: valid, unique, and built from the domain's own constructors.
import { randomUUID } from "node:crypto"
import { type CaptionRemovalRecord, newCaptionRemoval } from "../../domain/caption-removal.ts"
import type { NewCashEntry } from "../../domain/ports/cash-ledger.ts"
import type { NewLedgerEntry } from "../../domain/ports/ledger.ts"
import type { AuthorizationCode, Grant, OAuthClient, OAuthToken, OAuthTokenKind } from "../../domain/ports/oauth-store.ts"
import type { User } from "../../domain/ports/user-store.ts"
import type { Workspace } from "../../domain/ports/workspace-store.ts"
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

/** A caption removal of a URL's video, anywhere in the frame. */
export const aCaptionRemoval = (workspaceId: string, changes: Partial<CaptionRemovalRecord> = {}): CaptionRemovalRecord => ({
  ...newCaptionRemoval({
    id: randomUUID(),
    workspaceId,
    source: { url: "https://cdn.example.com/source.mp4" },
    webhookUrl: "https://example.com/hooks?secret=1",
    options: { target: "all", region: null },
    at: "2025-01-02T03:04:05.678Z"
  }),
  ...changes
})

export const anEntry = (workspaceId: string, amount: number, changes: Partial<NewLedgerEntry> = {}): NewLedgerEntry => ({
  id: randomUUID(),
  workspaceId,
  key: randomUUID(),
  amount,
  reason: amount < 0 ? "render" : "top_up",
  operation: amount < 0 ? "render" : "top-up",
  workKey: null,
  videoId: null,
  at: "2025-01-02T03:04:05.678Z",
  ...changes
})

/** A cash movement in micro-dollars: a top-up when positive, a BYOK render charge when negative. */
export const aCashEntry = (workspaceId: string, amount: number, changes: Partial<NewCashEntry> = {}): NewCashEntry => ({
  id: randomUUID(),
  workspaceId,
  key: randomUUID(),
  kind: amount < 0 ? "render_charge" : "top_up",
  amount,
  note: null,
  videoId: null,
  at: "2025-01-02T03:04:05.678Z",
  ...changes
})

/** A workspace named "Acme" unless `changes` say otherwise. */
export const aWorkspace = (changes: Partial<Workspace> = {}): Workspace => ({
  id: randomUUID(),
  name: "Acme",
  ownerEmail: "owner@example.com",
  plan: "free",
  byok: false,
  lastTemplateId: null,
  createdAt: "2025-01-02T03:04:05.678Z",
  ...changes
})

/** A user with a unique lower-case email and no password yet. */
export const aUser = (changes: Partial<User> = {}): User => ({
  id: randomUUID(),
  email: `ann-${randomUUID()}@example.com`,
  passwordHash: null,
  createdAt: "2025-01-02T03:04:05.678Z",
  ...changes
})

/** A public client of `https://app.example.com`, with registration metadata that nests. */
export const aClient = (changes: Partial<OAuthClient> = {}): OAuthClient => ({
  id: `rwc_${randomUUID()}`,
  name: "Claude",
  redirectUris: ["https://app.example.com/callback", "http://127.0.0.1:33418/cb"],
  metadata: {
    client_name: "Claude",
    redirect_uris: ["https://app.example.com/callback", "http://127.0.0.1:33418/cb"],
    grant_types: ["authorization_code", "refresh_token"],
    token_endpoint_auth_method: "none",
    software: { id: "claude-desktop", version: 3, beta: false, homepage: null }
  },
  createdAt: "2025-01-02T03:04:05.678Z",
  ...changes
})

export const aGrant = (
  ids: { readonly clientId: string; readonly userId: string; readonly workspaceId: string },
  changes: Partial<Grant> = {}
): Grant => ({
  id: randomUUID(),
  ...ids,
  resource: "https://reelwright.example.com/mcp",
  scope: null,
  createdAt: "2025-01-02T03:04:05.678Z",
  revokedAt: null,
  ...changes
})

export const aCode = (grantId: string): AuthorizationCode => ({
  hash: randomUUID().replaceAll("-", ""),
  grantId,
  redirectUri: "https://app.example.com/callback",
  codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  createdAt: "2025-01-02T03:04:05.678Z",
  expiresAt: "2025-01-02T03:05:05.678Z",
  usedAt: null
})

export const anOAuthToken = (grantId: string, kind: OAuthTokenKind): OAuthToken => ({
  hash: randomUUID().replaceAll("-", ""),
  grantId,
  kind,
  createdAt: "2025-01-02T03:04:05.678Z",
  expiresAt: kind === "access" ? "2025-01-02T15:04:05.678Z" : "2025-04-02T03:04:05.678Z",
  usedAt: null
})
