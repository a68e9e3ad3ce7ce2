// Authentication without a round trip: each process keeps the tokens it authenticated, with their
// workspaces, for a few seconds, so a client polling GET /v1/videos/:id costs one query instead of two.
// Every change to a token or a workspace row is announced on a channel with the workspace's id (migration
// 0022's triggers, at commit), and every process drops that workspace's tokens when it hears one: a revoked
// token, a new plan, stop or change at once everywhere. This process's own writes drop them as they return,
// before their notice.
//
// The listen stream of sql-pg 0.53 swallows its connection's errors (see pg-job-wakeups.ts), so the cache
// is read only while the LISTEN proves itself: a ping through the channel every second. Notices arrive in
// commit order, so a ping's echo proves that every change committed before the ping was sent was heard;
// without such an echo in the last few seconds, lookups go to the database and nothing is kept. A lookup
// that overlapped a clearing is not kept either: it may have read the row before the change.
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { SqlClient } from "@effect/sql"
import { Clock, Data, Deferred, type Duration, Effect, Layer, Option, Ref, Schedule, Stream } from "effect"
import { type TokenWithWorkspace, WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { PgWorkspaceStoreLive } from "./pg-workspace-store.ts"

export const WORKSPACES_CHANNEL = "reelwright_workspaces"

/** A safety net: every change clears the cache long before this. */
const TTL_MS = 5_000

/** Only tokens that authenticated are kept (unknown ones never are), so this bounds a busy process. */
const MAX_ENTRIES = 10_000

const HEARTBEAT = "1 second"

/** How long the cache is read after a ping was sent whose echo came back: past one heartbeat and a slow echo. */
const TRUSTED_MS = 3_000

/** A ping slower than this ends the LISTEN and a new one starts. */
const PING_TIMEOUT = "10 seconds"

/** Our own pings carry this prefix; other processes' pings on the channel are ignored. */
const PING = "ping:"

class PingLost extends Data.TaggedError("PingLost")<{ readonly message: string }> {}

// Freshness and pings are the connection's wall-clock business: a TestClock driving job times must not freeze them.
const wallClock = Clock.make()

interface Entry {
  readonly value: TokenWithWorkspace
  readonly expiresAt: number
}

/** WorkspaceStore with `findTokenWithWorkspace` cached; needs the store below it and the pool's LISTEN. */
const tokenCache = Layer.scoped(
  WorkspaceStore,
  Effect.gen(function*() {
    const store = yield* WorkspaceStore
    const pg = yield* PgClient.PgClient
    const entries = new Map<string, Entry>()
    // Bumped by every clearing: a lookup keeps its answer only if none happened while it ran.
    let generation = 0
    let trustedUntil = 0
    /** One workspace's tokens (a notice names it: creates write the last template used), or every token. */
    const clear = (workspaceId?: string) => {
      generation++
      if (workspaceId === undefined) entries.clear()
      else for (const [hash, entry] of entries) if (entry.value.workspace.id === workspaceId) entries.delete(hash)
    }
    const keep = (hash: string, value: TokenWithWorkspace, now: number) => {
      entries.delete(hash)
      // The oldest entry makes room: a Map iterates in insertion order.
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!)
      entries.set(hash, { value, expiresAt: now + TTL_MS })
    }

    const session = Effect.gen(function*() {
      const awaited = yield* Ref.make<Option.Option<readonly [string, Deferred.Deferred<void>]>>(Option.none())
      const onPayload = (payload: string) =>
        payload.startsWith(PING)
          ? Effect.flatMap(Ref.get(awaited), (pending) =>
            Option.isSome(pending) && pending.value[0] === payload ? Deferred.succeed(pending.value[1], undefined) : Effect.void)
          : Effect.sync(() => clear(payload))
      const ping = (within: Duration.DurationInput) =>
        Effect.gen(function*() {
          const payload = `${PING}${randomUUID()}`
          const echoed = yield* Deferred.make<void>()
          yield* Ref.set(awaited, Option.some([payload, echoed] as const))
          const sent = wallClock.unsafeCurrentTimeMillis()
          yield* pg`SELECT pg_notify(${WORKSPACES_CHANNEL}, ${payload})`
          yield* Deferred.await(echoed).pipe(
            Effect.timeoutFail({ duration: within, onTimeout: () => new PingLost({ message: `no ping came back on ${WORKSPACES_CHANNEL} in time` }) })
          )
          trustedUntil = sent + TRUSTED_MS
        })
      const watch = Effect.gen(function*() {
        // The stream gives no sign when its LISTEN has run: the first ping that comes back is that sign.
        yield* ping("50 millis").pipe(Effect.retry({ schedule: Schedule.recurs(200), while: (e) => e._tag === "PingLost" }))
        return yield* ping(PING_TIMEOUT).pipe(Effect.delay(HEARTBEAT), Effect.forever)
      })
      return yield* Effect.raceFirst(pg.listen(WORKSPACES_CHANNEL).pipe(Stream.runForEach(onPayload)), watch)
    })

    const supervise = session.pipe(
      // Notices may be missed until the next LISTEN proves itself: nothing kept is trusted meanwhile.
      Effect.ensuring(Effect.sync(() => {
        trustedUntil = 0
        clear()
      })),
      Effect.catchAllCause((cause) => Effect.logWarning("token cache: LISTEN lost; listening again", cause)),
      Effect.zipRight(Effect.sleep("1 second")),
      Effect.forever
    )
    // Opened by the first lookup: processes that never authenticate (workers) hold no LISTEN for it.
    const wanted = yield* Deferred.make<void>()
    yield* Deferred.await(wanted).pipe(Effect.zipRight(supervise), Effect.withClock(wallClock), Effect.forkScoped)

    const clearing = <A>(write: Effect.Effect<A>, workspaceId?: string) => Effect.ensuring(write, Effect.sync(() => clear(workspaceId)))
    return WorkspaceStore.of({
      ...store,
      update: (workspace) => clearing(store.update(workspace), workspace.id),
      revokeToken: (id, at) => clearing(store.revokeToken(id, at)),
      findTokenWithWorkspace: (hash) =>
        Effect.suspend(() => {
          const now = wallClock.unsafeCurrentTimeMillis()
          const trusted = now < trustedUntil
          const cached = trusted ? entries.get(hash) : undefined
          if (cached !== undefined && cached.expiresAt > now) return Effect.succeed(Option.some(cached.value))
          const seen = generation
          return Effect.gen(function*() {
            yield* Deferred.succeed(wanted, undefined)
            // A transaction may read what it has not committed: only a lookup outside one is kept.
            const inTransaction = Option.isSome(yield* Effect.serviceOption(SqlClient.TransactionConnection))
            const found = yield* store.findTokenWithWorkspace(hash)
            if (trusted && !inTransaction && seen === generation && Option.isSome(found) && found.value.token.revokedAt === null) {
              keep(hash, found.value, now)
            }
            return found
          })
        })
    })
  })
)

export const PgCachedWorkspaceStoreLive = tokenCache.pipe(Layer.provide(PgWorkspaceStoreLive))
