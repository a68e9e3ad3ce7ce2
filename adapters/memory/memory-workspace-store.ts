// WorkspaceStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { MemoryDatabase, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const MemoryWorkspaceStoreLive = Layer.effect(
  WorkspaceStore,
  Effect.map(MemoryDatabase, (db) =>
    WorkspaceStore.of({
      insert: (workspace) =>
        db.write((t) => ({ ...t, workspaces: withRow(t.workspaces, workspace.id, workspace) })).pipe(
          withSpan("MemoryWorkspaceStore.insert")
        ),
      get: (id) =>
        db.read((t) => Option.fromNullable(t.workspaces.get(id))).pipe(withSpan("MemoryWorkspaceStore.get")),
      update: (workspace) =>
        db.write((t) => ({ ...t, workspaces: updateRow(t.workspaces, workspace.id, () => workspace) })).pipe(
          withSpan("MemoryWorkspaceStore.update")
        ),
      listCreatedBefore: ({ afterId, createdBefore, limit }) =>
        db.read((t) =>
          [...t.workspaces.values()]
            .filter((w) => Date.parse(w.createdAt) < Date.parse(createdBefore) && (afterId === null || w.id > afterId))
            .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
            .slice(0, limit)
        ).pipe(withSpan("MemoryWorkspaceStore.listCreatedBefore")),
      insertToken: (token) =>
        db.write((t) => ({ ...t, tokens: withRow(t.tokens, token.id, token) })).pipe(
          withSpan("MemoryWorkspaceStore.insertToken")
        ),
      findTokenByHash: (hash) =>
        db.read((t) => Option.fromNullable([...t.tokens.values()].find((token) => token.hash === hash))).pipe(
          withSpan("MemoryWorkspaceStore.findTokenByHash")
        ),
      findTokenWithWorkspace: (hash) =>
        db.read((t) =>
          Option.gen(function*() {
            const token = yield* Option.fromNullable([...t.tokens.values()].find((token) => token.hash === hash))
            const workspace = yield* Option.fromNullable(t.workspaces.get(token.workspaceId))
            return { token, workspace }
          })
        ).pipe(withSpan("MemoryWorkspaceStore.findTokenWithWorkspace", { captureStackTrace: false })),
      getToken: (id) =>
        db.read((t) => Option.fromNullable(t.tokens.get(id))).pipe(withSpan("MemoryWorkspaceStore.getToken")),
      // The first revocation time stands.
      revokeToken: (id, at) =>
        db.write((t) => ({
          ...t,
          tokens: updateRow(t.tokens, id, (token) => token.revokedAt === null ? { ...token, revokedAt: at } : token)
        })).pipe(withSpan("MemoryWorkspaceStore.revokeToken")),
      getVocabulary: (workspaceId) =>
        db.read((t) => t.vocabularies.get(workspaceId) ?? []).pipe(withSpan("MemoryWorkspaceStore.getVocabulary")),
      setVocabulary: (workspaceId, terms) =>
        db.write((t) => ({ ...t, vocabularies: withRow(t.vocabularies, workspaceId, terms) })).pipe(
          withSpan("MemoryWorkspaceStore.setVocabulary")
        )
    }))
)
