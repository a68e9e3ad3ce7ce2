// The hourly OAuth sweep, driven by TestClock through the job queue as a worker runs it: each credential
// goes once it has expired (codes after 60 s, access tokens after 12 h, sessions after 7 days, refresh
// tokens after 90 days) and not before, and a registered client no user approved goes 30 days after its
// registration, while an approved one stays.
import { expect, it } from "@effect/vitest"
import { Clock, Effect, Option, TestClock } from "effect"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { OAuthStore } from "../../domain/ports/oauth-store.ts"
import { UserStore } from "../../domain/ports/user-store.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { nowIso } from "../../src/kernel/now.ts"
import { newOAuthSecret, sha256Hex } from "../../src/kernel/secrets.ts"
import { lifetimeFromNow } from "../../src/ops/oauth/lifetime.ts"
import { scheduleOAuthSweeps, sweepOAuthJob } from "../../src/ops/oauth/sweep-oauth.job.ts"
import { SESSION_TTL } from "../../domain/oauth.ts"
import { aClient, approvedCode, connectedApp, newVerifier, TestStores } from "./fixture.ts"

const HOUR_MS = 60 * 60 * 1000
const DAY_MS = 24 * HOUR_MS

it.effect("deletes codes, tokens and sessions once expired, and unused clients after 30 days, hour by hour", () =>
  Effect.gen(function*() {
    const oauth = yield* OAuthStore
    const users = yield* UserStore
    const app = yield* connectedApp()
    const pendingCode = yield* approvedCode(app.clientId, app.userId, app.workspaceId, newVerifier())
    const unusedClient = yield* aClient({ client_name: "Never connected" })
    const session = newOAuthSecret("session")
    const { at, expiresAt } = yield* lifetimeFromNow(SESSION_TTL)
    yield* users.insertSession({ hash: sha256Hex(session), userId: app.userId, createdAt: at, expiresAt })

    const access = () => oauth.findToken(sha256Hex(app.tokens.access_token)).pipe(Effect.map(Option.isSome))
    const refresh = () => oauth.findToken(sha256Hex(app.tokens.refresh_token)).pipe(Effect.map(Option.isSome))
    const signedIn = () => users.findSession(sha256Hex(session)).pipe(Effect.map(Option.isSome))
    const client = (id: string) => oauth.getClient(id).pipe(Effect.map(Option.isSome))
    const mediaJobs = Effect.gen(function*() {
      const stats = yield* (yield* JobQueue).laneStats(yield* Clock.currentTimeMillis)
      const media = stats.find((lane) => lane.lane === "media")!
      return { ready: media.ready, scheduled: media.scheduled }
    })

    // Each worker queues the current hour's sweep as it starts; two workers still make one sweep.
    const sweeper = makeJobRunner([sweepOAuthJob])
    yield* scheduleOAuthSweeps
    yield* scheduleOAuthSweeps
    expect(yield* mediaJobs).toEqual({ ready: 1, scheduled: 0 })
    yield* sweeper.drain("media")
    expect(yield* mediaJobs).toEqual({ ready: 0, scheduled: 1 })
    expect([yield* access(), yield* refresh(), yield* signedIn(), yield* client(unusedClient)]).toEqual([true, true, true, true])

    // 13 hours on: the codes (60 s) and the access token (12 h) are gone; each sweep queued the next hour's.
    yield* TestClock.adjust(13 * HOUR_MS)
    yield* sweeper.drain("media")
    expect((yield* oauth.consumeCode(sha256Hex(pendingCode), yield* nowIso))._tag).toBe("Unknown")
    expect([yield* access(), yield* refresh(), yield* signedIn()]).toEqual([false, true, true])

    yield* TestClock.adjust(7 * DAY_MS)
    yield* sweeper.drain("media")
    expect([yield* refresh(), yield* signedIn(), yield* client(unusedClient)]).toEqual([true, false, true])

    // 30 days after registration: the client no one approved goes; the connected one stays.
    yield* TestClock.adjust(23 * DAY_MS)
    yield* sweeper.drain("media")
    expect([yield* client(unusedClient), yield* client(app.clientId), yield* refresh()]).toEqual([false, true, true])

    // 90 days: the refresh token too; the grants (the connected app, twice approved) stay.
    yield* TestClock.adjust(60 * DAY_MS)
    yield* sweeper.drain("media")
    expect([yield* refresh(), yield* client(app.clientId)]).toEqual([false, true])
    expect((yield* oauth.grantsOfUser(app.userId)).map((view) => view.client.id)).toEqual([app.clientId, app.clientId])
  }).pipe(Effect.provide(TestStores)))
