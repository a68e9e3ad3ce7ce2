// What every OAuthStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { OAuthStore, type SingleUse } from "../../domain/ports/oauth-store.ts"
import { UserStore } from "../../domain/ports/user-store.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { aClient, aCode, aGrant, anOAuthToken, aUser, aWorkspace } from "./fixtures.ts"

type Stores = OAuthStore | UserStore | WorkspaceStore

/** A workspace, a user and a client, stored: what a grant refers to. */
export const grantParents = Effect.gen(function*() {
  const workspace = aWorkspace()
  const user = aUser()
  const client = aClient()
  yield* (yield* WorkspaceStore).insert(workspace)
  yield* (yield* UserStore).insertUser(user)
  yield* (yield* OAuthStore).insertClient(client)
  return { workspace, user, client, ids: { clientId: client.id, userId: user.id, workspaceId: workspace.id } }
})

/** The outcomes' tags, for comparing a batch of racing uses. */
export const tagsOf = (outcomes: ReadonlyArray<SingleUse<unknown>>): Record<string, number> =>
  outcomes.reduce<Record<string, number>>((counts, o) => ({ ...counts, [o._tag]: (counts[o._tag] ?? 0) + 1 }), {})

export const oauthStoreContract = (name: string, stores: Layer.Layer<Stores, unknown>): void =>
  layer(stores)(`OAuthStore (${name})`, (it) => {
    it.effect("stores a client with its registration metadata", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const client = aClient()
        expect(Option.isNone(yield* store.getClient(client.id))).toBe(true)
        yield* store.insertClient(client)
        yield* store.insertClient(aClient({ name: "Other", redirectUris: [], metadata: {} }))
        expect(Option.getOrThrow(yield* store.getClient(client.id))).toEqual(client)
      }))

    it.effect("stores grants and keeps the first revocation time", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const { ids } = yield* grantParents
        const grant = aGrant(ids, { scope: "mcp" })
        const other = aGrant(ids)
        yield* store.insertGrant(grant)
        yield* store.insertGrant(other)
        expect(Option.getOrThrow(yield* store.getGrant(grant.id))).toEqual(grant)
        expect(Option.isNone(yield* store.getGrant(randomUUID()))).toBe(true)

        yield* store.revokeGrant(grant.id, "2025-02-03T04:05:06.789Z")
        yield* store.revokeGrant(grant.id, "2025-03-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.getGrant(grant.id)).revokedAt).toBe("2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.getGrant(other.id)).revokedAt).toBeNull()
      }))

    it.effect("lists a user's live grants newest first, each with its client and workspace", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const { client, ids, user, workspace } = yield* grantParents
        const second = aWorkspace({ name: "Zeta" })
        yield* (yield* WorkspaceStore).insert(second)
        const otherClient = aClient({ name: "Cursor" })
        yield* store.insertClient(otherClient)
        const someoneElse = aUser()
        yield* (yield* UserStore).insertUser(someoneElse)

        const base = randomUUID()
        const oldest = aGrant(ids, { id: `${base}-0`, createdAt: "2025-01-01T00:00:00.000Z" })
        // Two at the same instant: the greater id comes first.
        const tiedLow = aGrant({ ...ids, clientId: otherClient.id }, { id: `${base}-1`, createdAt: "2025-01-05T00:00:00.000Z" })
        const tiedHigh = aGrant({ ...ids, workspaceId: second.id }, { id: `${base}-2`, createdAt: "2025-01-05T00:00:00.000Z" })
        const revoked = aGrant(ids, { createdAt: "2025-01-09T00:00:00.000Z" })
        const notHers = aGrant({ ...ids, userId: someoneElse.id })
        for (const grant of [tiedLow, oldest, revoked, tiedHigh, notHers]) yield* store.insertGrant(grant)
        yield* store.revokeGrant(revoked.id, "2025-01-10T00:00:00.000Z")

        expect(yield* store.grantsOfUser(user.id)).toEqual([
          { grant: tiedHigh, client, workspace: second },
          { grant: tiedLow, client: otherClient, workspace },
          { grant: oldest, client, workspace }
        ])
        yield* store.revokeGrant(tiedHigh.id, "2025-01-10T00:00:00.000Z")
        expect((yield* store.grantsOfUser(user.id)).map((view) => view.grant.id)).toEqual([tiedLow.id, oldest.id])
        expect(yield* store.grantsOfUser(randomUUID())).toEqual([])
      }))

    it.effect("consumes a code once: First, then Replayed; an unknown code is Unknown", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const { ids } = yield* grantParents
        const grant = aGrant(ids)
        yield* store.insertGrant(grant)
        const code = aCode(grant.id)
        yield* store.insertCode(code)

        const used = { ...code, usedAt: "2025-01-02T03:04:10.000Z" }
        expect(yield* store.consumeCode(code.hash, "2025-01-02T03:04:10.000Z")).toEqual({ _tag: "First", value: used })
        expect(yield* store.consumeCode(code.hash, "2025-01-02T03:04:20.000Z")).toEqual({ _tag: "Replayed", value: used })
        expect(yield* store.consumeCode(randomUUID(), "2025-01-02T03:04:20.000Z")).toEqual({ _tag: "Unknown" })
      }))

    it.effect("uses a refresh token once; an access token is Unknown to it", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const { ids } = yield* grantParents
        const grant = aGrant(ids)
        yield* store.insertGrant(grant)
        const refresh = anOAuthToken(grant.id, "refresh")
        const access = anOAuthToken(grant.id, "access")
        yield* store.insertToken(refresh)
        yield* store.insertToken(access)
        expect(Option.getOrThrow(yield* store.findToken(refresh.hash))).toEqual(refresh)
        expect(Option.getOrThrow(yield* store.findToken(access.hash))).toEqual(access)
        expect(Option.isNone(yield* store.findToken(randomUUID()))).toBe(true)

        const used = { ...refresh, usedAt: "2025-01-03T00:00:00.000Z" }
        expect(yield* store.useRefreshToken(refresh.hash, "2025-01-03T00:00:00.000Z")).toEqual({ _tag: "First", value: used })
        expect(yield* store.useRefreshToken(refresh.hash, "2025-01-04T00:00:00.000Z")).toEqual({ _tag: "Replayed", value: used })
        expect(Option.getOrThrow(yield* store.findToken(refresh.hash))).toEqual(used)
        expect(yield* store.useRefreshToken(randomUUID(), "2025-01-04T00:00:00.000Z")).toEqual({ _tag: "Unknown" })

        expect(yield* store.useRefreshToken(access.hash, "2025-01-04T00:00:00.000Z")).toEqual({ _tag: "Unknown" })
        expect(Option.getOrThrow(yield* store.findToken(access.hash))).toEqual(access)
      }))

    it.effect("lets exactly one of many concurrent uses be the first", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const { ids } = yield* grantParents
        const grant = aGrant(ids)
        yield* store.insertGrant(grant)
        const code = aCode(grant.id)
        const refresh = anOAuthToken(grant.id, "refresh")
        yield* store.insertCode(code)
        yield* store.insertToken(refresh)
        const at = "2025-01-02T03:04:10.000Z"
        const codes = yield* Effect.all(Array.from({ length: 20 }, () => store.consumeCode(code.hash, at)), {
          concurrency: "unbounded"
        })
        const tokens = yield* Effect.all(Array.from({ length: 20 }, () => store.useRefreshToken(refresh.hash, at)), {
          concurrency: "unbounded"
        })
        expect(tagsOf(codes)).toEqual({ First: 1, Replayed: 19 })
        expect(tagsOf(tokens)).toEqual({ First: 1, Replayed: 19 })
      }))

    it.effect("finds an access token with its grant and workspace, but not a refresh token", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const { ids, workspace } = yield* grantParents
        const grant = aGrant(ids, { scope: "mcp" })
        yield* store.insertGrant(grant)
        const access = anOAuthToken(grant.id, "access")
        const refresh = anOAuthToken(grant.id, "refresh")
        yield* store.insertToken(access)
        yield* store.insertToken(refresh)

        expect(Option.getOrThrow(yield* store.findAccessGrant(access.hash))).toEqual({ token: access, grant, workspace })
        expect(Option.isNone(yield* store.findAccessGrant(refresh.hash))).toBe(true)
        expect(Option.isNone(yield* store.findAccessGrant(randomUUID()))).toBe(true)

        // Revocation shows on the grant; the caller refuses the token.
        yield* store.revokeGrant(grant.id, "2025-02-03T04:05:06.789Z")
        expect(Option.getOrThrow(yield* store.findAccessGrant(access.hash)).grant.revokedAt).toBe("2025-02-03T04:05:06.789Z")
      }))
  })
