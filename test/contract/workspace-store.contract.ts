// What every WorkspaceStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { type ApiToken, type Workspace, WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { aWorkspace } from "./fixtures.ts"

const aToken = (workspaceId: string): ApiToken => ({
  id: randomUUID(),
  workspaceId,
  hash: randomUUID().replaceAll("-", ""),
  label: "ci",
  createdAt: "2025-01-02T03:04:05.678Z",
  revokedAt: null
})

export const workspaceStoreContract = (name: string, stores: Layer.Layer<WorkspaceStore, unknown>): void =>
  layer(stores)(`WorkspaceStore (${name})`, (it) => {
    it.effect("stores, reads and updates a workspace", () =>
      Effect.gen(function*() {
        const store = yield* WorkspaceStore
        const workspace = aWorkspace()
        expect(Option.isNone(yield* store.get(workspace.id))).toBe(true)
        yield* store.insert(workspace)
        expect(Option.getOrThrow(yield* store.get(workspace.id))).toEqual(workspace)

        const changed: Workspace = {
          ...workspace,
          plan: "pro",
          byok: true,
          lastTemplateId: -3
        }
        yield* store.update(changed)
        expect(Option.getOrThrow(yield* store.get(workspace.id))).toEqual(changed)
      }))

    it.effect("keeps a workspace's vocabulary, replaced whole, apart from other workspaces'", () =>
      Effect.gen(function*() {
        const store = yield* WorkspaceStore
        const [one, two] = [aWorkspace(), aWorkspace()]
        yield* store.insert(one)
        yield* store.insert(two)
        expect(yield* store.getVocabulary(one.id)).toEqual([])
        yield* store.setVocabulary(one.id, ["Zorblatt", "GPT-4o", "Ünïcødé \"quoted\""])
        expect(yield* store.getVocabulary(one.id)).toEqual(["Zorblatt", "GPT-4o", "Ünïcødé \"quoted\""])
        yield* store.setVocabulary(one.id, ["Reelwright"])
        expect(yield* store.getVocabulary(one.id)).toEqual(["Reelwright"])
        expect(yield* store.getVocabulary(two.id)).toEqual([])
        yield* store.setVocabulary(one.id, [])
        expect(yield* store.getVocabulary(one.id)).toEqual([])
      }))

    it.effect("finds tokens by hash and by id, and revokes them", () =>
      Effect.gen(function*() {
        const store = yield* WorkspaceStore
        const workspace = aWorkspace()
        yield* store.insert(workspace)
        const token = aToken(workspace.id)
        const other = aToken(workspace.id)
        yield* store.insertToken(token)
        yield* store.insertToken(other)

        expect(Option.getOrThrow(yield* store.findTokenByHash(token.hash))).toEqual(token)
        expect(Option.getOrThrow(yield* store.getToken(other.id))).toEqual(other)
        expect(Option.isNone(yield* store.findTokenByHash("0".repeat(64)))).toBe(true)
        expect(Option.isNone(yield* store.getToken(randomUUID()))).toBe(true)

        yield* store.revokeToken(token.id, "2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.getToken(token.id)).revokedAt).toBe("2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.findTokenByHash(token.hash)).revokedAt).toBe("2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.getToken(other.id)).revokedAt).toBeNull()
      }))

    it.effect("finds a token together with its workspace", () =>
      Effect.gen(function*() {
        const store = yield* WorkspaceStore
        const workspace = aWorkspace()
        yield* store.insert(workspace)
        const token = aToken(workspace.id)
        yield* store.insertToken(token)

        expect(Option.getOrThrow(yield* store.findTokenWithWorkspace(token.hash))).toEqual({ token, workspace })
        expect(Option.isNone(yield* store.findTokenWithWorkspace("0".repeat(64)))).toBe(true)
        yield* store.revokeToken(token.id, "2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.findTokenWithWorkspace(token.hash)).token.revokedAt).toBe("2025-02-03T04:05:06.789Z")
      }))
  })
