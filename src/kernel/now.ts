import { Clock, Effect } from "effect"

/** The current time as ISO 8601 UTC with milliseconds, read through Clock so TestClock drives it. */
export const nowIso: Effect.Effect<string> = Clock.currentTimeMillis.pipe(Effect.map((ms) => new Date(ms).toISOString()))
