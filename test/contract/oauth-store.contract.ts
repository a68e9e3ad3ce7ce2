// What every OAuthStore adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { OAuthStore, type SingleUse } from "../../domain/ports/oauth-store.ts"
import { type Session, UserStore } from "../../domain/ports/user-store.ts"
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

/** Times long before the fixtures' (2025): the sweeps below delete only what these tests made. */
const SWEPT_AT = "2000-01-02T00:00:00.000Z"
const BEFORE_SWEEP = "2000-01-01T23:59:59.999Z"
const AFTER_SWEEP = "2000-01-02T00:00:00.001Z"

const aSession = (userId: string, expiresAt: string): Session => ({
  hash: randomUUID().replaceAll("-", ""),
  userId,
  createdAt: "2000-01-01T00:00:00.000Z",
  expiresAt
})

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

    it.effect("saves a metadata-document client: inserted, then replaced but for its creation time", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const first = aClient({ id: `https://app.example/clients/${randomUUID()}.json`, name: "Doc app" })
        yield* store.saveClient(first)
        expect(Option.getOrThrow(yield* store.getClient(first.id))).toEqual(first)
        const changed = {
          ...first,
          name: "Doc app 2",
          redirectUris: ["https://app.example/cb2"],
          metadata: { client_name: "Doc app 2" },
          createdAt: "2025-06-01T00:00:00.000Z"
        }
        yield* store.saveClient(changed)
        expect(Option.getOrThrow(yield* store.getClient(first.id))).toEqual({ ...changed, createdAt: first.createdAt })
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

    it.effect("deletes the codes, tokens and sessions expired at the sweep's time, used or not, and keeps the rest", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const users = yield* UserStore
        const { ids, user } = yield* grantParents
        const grant = aGrant(ids)
        yield* store.insertGrant(grant)
        const expiredCode = { ...aCode(grant.id), expiresAt: BEFORE_SWEEP }
        const usedExpiredCode = { ...aCode(grant.id), expiresAt: BEFORE_SWEEP }
        const liveCode = { ...aCode(grant.id), expiresAt: AFTER_SWEEP }
        // The expiry is inclusive, as it is where credentials are checked.
        const expiringNowCode = { ...aCode(grant.id), expiresAt: SWEPT_AT }
        for (const code of [expiredCode, usedExpiredCode, liveCode, expiringNowCode]) yield* store.insertCode(code)
        yield* store.consumeCode(usedExpiredCode.hash, "2000-01-01T00:00:00.000Z")
        const expiredAccess = { ...anOAuthToken(grant.id, "access"), expiresAt: BEFORE_SWEEP }
        const rotatedRefresh = { ...anOAuthToken(grant.id, "refresh"), expiresAt: BEFORE_SWEEP }
        const liveAccess = { ...anOAuthToken(grant.id, "access"), expiresAt: AFTER_SWEEP }
        const liveRefresh = { ...anOAuthToken(grant.id, "refresh"), expiresAt: AFTER_SWEEP }
        for (const token of [expiredAccess, rotatedRefresh, liveAccess, liveRefresh]) yield* store.insertToken(token)
        yield* store.useRefreshToken(rotatedRefresh.hash, "2000-01-01T00:00:00.000Z")
        const expiredSession = aSession(user.id, BEFORE_SWEEP)
        const liveSession = aSession(user.id, AFTER_SWEEP)
        yield* users.insertSession(expiredSession)
        yield* users.insertSession(liveSession)

        expect(yield* store.deleteExpired(SWEPT_AT)).toEqual({ codes: 3, tokens: 2, sessions: 1 })
        for (const code of [expiredCode, usedExpiredCode, expiringNowCode]) {
          expect(yield* store.consumeCode(code.hash, SWEPT_AT)).toEqual({ _tag: "Unknown" })
        }
        expect((yield* store.consumeCode(liveCode.hash, SWEPT_AT))._tag).toBe("First")
        for (const token of [expiredAccess, rotatedRefresh]) expect(Option.isNone(yield* store.findToken(token.hash))).toBe(true)
        for (const token of [liveAccess, liveRefresh]) expect(Option.getOrThrow(yield* store.findToken(token.hash))).toEqual(token)
        expect(Option.isNone(yield* users.findSession(expiredSession.hash))).toBe(true)
        expect(Option.getOrThrow(yield* users.findSession(liveSession.hash)).session).toEqual(liveSession)
        // The grant stays: it is the connected app, whatever its tokens.
        expect(Option.isSome(yield* store.getGrant(grant.id))).toBe(true)
        expect(yield* store.deleteExpired(SWEPT_AT)).toEqual({ codes: 0, tokens: 0, sessions: 0 })
      }))

    it.effect("deletes the clients created by the cutoff that no grant names, and keeps the approved and the newer", () =>
      Effect.gen(function*() {
        const store = yield* OAuthStore
        const { ids } = yield* grantParents
        const cutoff = "2000-06-01T00:00:00.000Z"
        const unused = aClient({ createdAt: "2000-05-01T00:00:00.000Z" })
        const unusedAtCutoff = aClient({ createdAt: cutoff })
        const approved = aClient({ createdAt: "2000-05-01T00:00:00.000Z" })
        const disconnected = aClient({ createdAt: "2000-05-01T00:00:00.000Z" })
        const newer = aClient({ createdAt: "2000-06-01T00:00:00.001Z" })
        for (const client of [unused, unusedAtCutoff, approved, disconnected, newer]) yield* store.insertClient(client)
        yield* store.insertGrant(aGrant({ ...ids, clientId: approved.id }))
        const revoked = aGrant({ ...ids, clientId: disconnected.id })
        yield* store.insertGrant(revoked)
        yield* store.revokeGrant(revoked.id, "2000-05-02T00:00:00.000Z")

        expect(yield* store.deleteUnusedClients(cutoff)).toBe(2)
        for (const client of [unused, unusedAtCutoff]) expect(Option.isNone(yield* store.getClient(client.id))).toBe(true)
        for (const client of [approved, disconnected, newer]) expect(Option.getOrThrow(yield* store.getClient(client.id))).toEqual(client)
        expect(yield* store.deleteUnusedClients(cutoff)).toBe(0)
      }))
  })
