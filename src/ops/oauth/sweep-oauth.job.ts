// The authorization server's dead rows, deleted by a job in the queue, as expired files' bytes are
// (sweep-expired-files.job.ts): every worker queues the current hour's sweep as it starts, and each
// sweep first queues the next hour's, so the chain survives a sweep that fails; the dedupe key names the
// hour, so there is one sweep an hour however many workers queue it. Expired codes, tokens and sign-in
// sessions could only be refused; clients that no user approved within UNUSED_CLIENT_TTL of their
// registration never will be.
import { Clock, Duration, Effect } from "effect"
import { UNUSED_CLIENT_TTL } from "../../../domain/oauth.ts"
import { OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { Done, enqueue, handle } from "../../kernel/job.ts"
import { oauthSweepJobKey, SweepOAuth } from "../../kernel/job-catalogue.ts"
import { withSpan } from "../../kernel/spans.ts"

/** Nothing expired is usable, so the sweep only bounds the tables' growth: hourly is plenty. */
export const OAUTH_SWEEP_INTERVAL_MS = 60 * 60 * 1000

const periodStart = (at: number): number => Math.floor(at / OAUTH_SWEEP_INTERVAL_MS) * OAUTH_SWEEP_INTERVAL_MS

const queueSweep = (start: number, runAt: number) => enqueue(SweepOAuth, {}, { runAt, dedupeKey: oauthSweepJobKey(start) })

/** Queues the current hour's sweep, due now (run by every worker as it starts). */
export const scheduleOAuthSweeps = Clock.currentTimeMillis.pipe(
  Effect.flatMap((now) => queueSweep(periodStart(now), now)),
  Effect.asVoid,
  withSpan("scheduleOAuthSweeps")
)

/** Deletes what expired by now and the clients unused since UNUSED_CLIENT_TTL ago; answers how many of each. */
export const sweepOAuth = Effect.gen(function*() {
  const oauth = yield* OAuthStore
  const now = yield* Clock.currentTimeMillis
  const expired = yield* oauth.deleteExpired(new Date(now).toISOString())
  const clients = yield* oauth.deleteUnusedClients(new Date(now - Duration.toMillis(UNUSED_CLIENT_TTL)).toISOString())
  const swept = { ...expired, clients }
  yield* Effect.logInfo("OAuth rows swept").pipe(Effect.annotateLogs(swept))
  return swept
}).pipe(withSpan("sweepOAuth"))

export const sweepOAuthJob = handle(SweepOAuth, {
  run: () =>
    Effect.gen(function*() {
      const next = periodStart(yield* Clock.currentTimeMillis) + OAUTH_SWEEP_INTERVAL_MS
      yield* queueSweep(next, next)
      yield* sweepOAuth
      return Done
    }),
  onDead: (_, error, job) =>
    Effect.logError(`the OAuth sweep failed (${error}); the next hour's sweep deletes what it left`).pipe(
      Effect.annotateLogs({ jobId: job.id })
    )
})
