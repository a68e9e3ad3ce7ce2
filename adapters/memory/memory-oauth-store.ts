// OAuthStore over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { type GrantView, OAuthStore, type SingleUse, type SweptExpired } from "../../domain/ports/oauth-store.ts"
import { byCodeUnits, MemoryDatabase, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** `map` without the rows `doomed` picks, and how many those were. */
const without = <K, V>(map: ReadonlyMap<K, V>, doomed: (row: V) => boolean): readonly [ReadonlyMap<K, V>, number] => {
  const kept = new Map([...map].filter(([, row]) => !doomed(row)))
  return [kept, map.size - kept.size]
}

/** Expired by `at`: the expiry is inclusive, as lifetime.ts's hasExpired has it. */
const expiredAt = (at: string) => (row: { readonly expiresAt: string }) => Date.parse(row.expiresAt) <= Date.parse(at)

/**
 * The compare-and-set of a single-use row: `row` unused becomes `First` with `usedAt` set (and is written
 * back with `put`), used becomes `Replayed`, absent `Unknown`. Run inside `db.modify`, so no other use
 * can come between the check and the mark.
 */
const useOnce = <A extends { readonly usedAt: string | null }>(
  row: A | undefined,
  at: string
): readonly [SingleUse<A>, A | undefined] => {
  if (row === undefined) return [{ _tag: "Unknown" }, undefined]
  if (row.usedAt !== null) return [{ _tag: "Replayed", value: row }, undefined]
  const used = { ...row, usedAt: at }
  return [{ _tag: "First", value: used }, used]
}

export const MemoryOAuthStoreLive = Layer.effect(
  OAuthStore,
  Effect.map(MemoryDatabase, (db) =>
    OAuthStore.of({
      insertClient: (client) =>
        db.write((t) => ({ ...t, oauthClients: withRow(t.oauthClients, client.id, client) })).pipe(
          withSpan("MemoryOAuthStore.insertClient")
        ),
      saveClient: (client) =>
        db.write((t) => ({
          ...t,
          oauthClients: withRow(t.oauthClients, client.id, { ...client, createdAt: t.oauthClients.get(client.id)?.createdAt ?? client.createdAt })
        })).pipe(withSpan("MemoryOAuthStore.saveClient")),
      getClient: (id) =>
        db.read((t) => Option.fromNullable(t.oauthClients.get(id))).pipe(withSpan("MemoryOAuthStore.getClient")),
      insertGrant: (grant) =>
        db.write((t) => ({ ...t, grants: withRow(t.grants, grant.id, grant) })).pipe(
          withSpan("MemoryOAuthStore.insertGrant")
        ),
      getGrant: (id) =>
        db.read((t) => Option.fromNullable(t.grants.get(id))).pipe(withSpan("MemoryOAuthStore.getGrant")),
      // The first revocation time stands.
      revokeGrant: (id, at) =>
        db.write((t) => ({
          ...t,
          grants: updateRow(t.grants, id, (grant) => grant.revokedAt === null ? { ...grant, revokedAt: at } : grant)
        })).pipe(withSpan("MemoryOAuthStore.revokeGrant")),
      grantsOfUser: (userId) =>
        db.read((t) =>
          [...t.grants.values()]
            .filter((grant) => grant.userId === userId && grant.revokedAt === null)
            .flatMap((grant): ReadonlyArray<GrantView> => {
              const client = t.oauthClients.get(grant.clientId)
              const workspace = t.workspaces.get(grant.workspaceId)
              return client === undefined || workspace === undefined ? [] : [{ grant, client, workspace }]
            })
            .sort((a, b) =>
              byCodeUnits(b.grant.createdAt, a.grant.createdAt) || byCodeUnits(b.grant.id, a.grant.id)
            )
        ).pipe(withSpan("MemoryOAuthStore.grantsOfUser")),
      insertCode: (code) =>
        db.write((t) => ({ ...t, codes: withRow(t.codes, code.hash, code) })).pipe(
          withSpan("MemoryOAuthStore.insertCode")
        ),
      consumeCode: (hash, at) =>
        db.modify((t) => {
          const [outcome, used] = useOnce(t.codes.get(hash), at)
          return [outcome, used === undefined ? t : { ...t, codes: withRow(t.codes, hash, used) }] as const
        }).pipe(withSpan("MemoryOAuthStore.consumeCode")),
      insertToken: (token) =>
        db.write((t) => ({ ...t, oauthTokens: withRow(t.oauthTokens, token.hash, token) })).pipe(
          withSpan("MemoryOAuthStore.insertToken")
        ),
      useRefreshToken: (hash, at) =>
        db.modify((t) => {
          const token = t.oauthTokens.get(hash)
          const [outcome, used] = useOnce(token?.kind === "refresh" ? token : undefined, at)
          return [outcome, used === undefined ? t : { ...t, oauthTokens: withRow(t.oauthTokens, hash, used) }] as const
        }).pipe(withSpan("MemoryOAuthStore.useRefreshToken")),
      findToken: (hash) =>
        db.read((t) => Option.fromNullable(t.oauthTokens.get(hash))).pipe(withSpan("MemoryOAuthStore.findToken")),
      findAccessGrant: (hash) =>
        db.read((t) =>
          Option.gen(function*() {
            const token = yield* Option.fromNullable(t.oauthTokens.get(hash)).pipe(
              Option.filter((token) => token.kind === "access")
            )
            const grant = yield* Option.fromNullable(t.grants.get(token.grantId))
            const workspace = yield* Option.fromNullable(t.workspaces.get(grant.workspaceId))
            return { token, grant, workspace }
          })
        ).pipe(withSpan("MemoryOAuthStore.findAccessGrant")),
      deleteExpired: (at) =>
        db.modify((t) => {
          const [codes, codeCount] = without(t.codes, expiredAt(at))
          const [oauthTokens, tokenCount] = without(t.oauthTokens, expiredAt(at))
          const [sessions, sessionCount] = without(t.sessions, expiredAt(at))
          const swept: SweptExpired = { codes: codeCount, tokens: tokenCount, sessions: sessionCount }
          return [swept, { ...t, codes, oauthTokens, sessions }] as const
        }).pipe(withSpan("MemoryOAuthStore.deleteExpired")),
      deleteUnusedClients: (createdBy) =>
        db.modify((t) => {
          const approved = new Set([...t.grants.values()].map((grant) => grant.clientId))
          const [oauthClients, count] = without(
            t.oauthClients,
            (client) => Date.parse(client.createdAt) <= Date.parse(createdBy) && !approved.has(client.id)
          )
          return [count, { ...t, oauthClients }] as const
        }).pipe(withSpan("MemoryOAuthStore.deleteUnusedClients"))
    }))
)
