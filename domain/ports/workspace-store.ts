import { Context, type Effect, type Option } from "effect"
import type { Plan } from "../plans.ts"

export interface Workspace {
  readonly id: string
  readonly name: string
  readonly ownerEmail: string
  readonly plan: Plan
  readonly byok: boolean
  /** Caption template used last; a create without `templateId` uses it. */
  readonly lastTemplateId: number | null
  readonly createdAt: string
}

export interface ApiToken {
  readonly id: string
  readonly workspaceId: string
  /** SHA-256 of the token, hex. The token itself is never stored. */
  readonly hash: string
  readonly label: string
  readonly createdAt: string
  readonly revokedAt: string | null
}

/** A token with its workspace, read together: authentication is one round trip to the store. */
export interface TokenWithWorkspace {
  readonly token: ApiToken
  readonly workspace: Workspace
}

export interface WorkspaceStoreShape {
  readonly insert: (workspace: Workspace) => Effect.Effect<void>
  readonly get: (id: string) => Effect.Effect<Option.Option<Workspace>>
  readonly update: (workspace: Workspace) => Effect.Effect<void>
  /**
   * A page of a sweep over every workspace created before `createdBefore`: ordered by id, those after
   * `afterId` (null: from the start); fewer than `limit` ends the sweep.
   */
  readonly listCreatedBefore: (query: {
    readonly createdBefore: string
    readonly afterId: string | null
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<Workspace>>
  readonly insertToken: (token: ApiToken) => Effect.Effect<void>
  readonly findTokenByHash: (hash: string) => Effect.Effect<Option.Option<ApiToken>>
  readonly findTokenWithWorkspace: (hash: string) => Effect.Effect<Option.Option<TokenWithWorkspace>>
  readonly getToken: (id: string) => Effect.Effect<Option.Option<ApiToken>>
  readonly revokeToken: (id: string, at: string) => Effect.Effect<void>
  /** The workspace's vocabulary (`domain/vocabulary.ts`); [] until one is set. */
  readonly getVocabulary: (workspaceId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Replaces the vocabulary. */
  readonly setVocabulary: (workspaceId: string, terms: ReadonlyArray<string>) => Effect.Effect<void>
}
export class WorkspaceStore extends Context.Tag("WorkspaceStore")<WorkspaceStore, WorkspaceStoreShape>() {}
