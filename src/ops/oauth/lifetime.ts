// Credentials that expire (codes, tokens, sessions): when one issued now stops working, and whether
// one has, both read through Clock so TestClock can move time in tests.
import { Clock, Duration, Effect } from "effect"

/** The current time and the end of a lifetime starting now, as ISO 8601 UTC. */
export const lifetimeFromNow = (ttl: Duration.DurationInput): Effect.Effect<{ readonly at: string; readonly expiresAt: string }> =>
  Effect.map(Clock.currentTimeMillis, (ms) => ({
    at: new Date(ms).toISOString(),
    expiresAt: new Date(ms + Duration.toMillis(ttl)).toISOString()
  }))

/** A credential stops working at its `expiresAt`, inclusive. */
export const hasExpired = (expiresAt: string): Effect.Effect<boolean> =>
  Effect.map(Clock.currentTimeMillis, (ms) => Date.parse(expiresAt) <= ms)
