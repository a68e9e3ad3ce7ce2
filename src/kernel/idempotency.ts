// Retried creates with the same Idempotency-Key get the first answer; the same key with another
// body is a conflict. Answers are stored encoded and decoded again, so replays match exactly.
// The key is reserved (committed) before the work starts, so of concurrent requests with one key
// exactly one does the work; the others wait a little for its answer and replay it.
import { Clock, Duration, Effect, Option, Schema } from "effect"
import { Conflict } from "../../domain/errors.ts"
import { IdempotencyStore, type KeyedRequest } from "../../domain/ports/idempotency-store.ts"
import { CurrentWorkspace } from "./current-workspace.ts"
import { newId, sha256Hex } from "./secrets.ts"
import { withSpan } from "./spans.ts"

/** How long a request waits for the answer of the one holding its key before a 409 says it still runs. */
const WAIT_FOR_HOLDER = Duration.seconds(10)
const POLL_INTERVAL = Duration.millis(100)
/**
 * A reservation never answered for this long is taken over: the process that held it died (a live one
 * answers or releases). Far longer than any request runs, synchronous ones included.
 */
const RESERVATION_EXPIRY = Duration.minutes(10)

const stableJson = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v)

export const withIdempotency = <A, I, E, R>(
  key: string,
  operationName: string,
  request: unknown,
  output: Schema.Schema<A, I>,
  run: Effect.Effect<A, E, R>
): Effect.Effect<A, E | Conflict, R | IdempotencyStore | CurrentWorkspace> =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const store = yield* IdempotencyStore
    const fingerprint = sha256Hex(`${operationName}\n${stableJson(request)}`)
    const holder = newId()
    const reserve = Effect.flatMap(Clock.currentTimeMillis, (now) =>
      store.reserve({
        workspaceId: workspace.id,
        key,
        fingerprint,
        holder,
        reservedAt: new Date(now).toISOString(),
        staleBefore: new Date(now - Duration.toMillis(RESERVATION_EXPIRY)).toISOString()
      }))
    const giveUpAt = (yield* Clock.currentTimeMillis) + Duration.toMillis(WAIT_FOR_HOLDER)

    let current: KeyedRequest = yield* reserve
    while (current.holder !== holder) {
      if (current.fingerprint !== fingerprint) {
        return yield* new Conflict({
          message: "This Idempotency-Key was already used with a different request. Use a new key for a new request."
        })
      }
      if (Option.isSome(current.response)) {
        return yield* Schema.decodeUnknown(output)(current.response.value).pipe(Effect.orDie)
      }
      if ((yield* Clock.currentTimeMillis) >= giveUpAt) {
        return yield* new Conflict({
          message: "The first request with this Idempotency-Key is still in progress. Send it again later to get its answer."
        })
      }
      yield* Effect.sleep(POLL_INTERVAL)
      // Gone: its holder failed and released it, and this request runs in its place (or waits for another that does).
      const next = yield* store.get(workspace.id, key)
      current = Option.isSome(next) ? next.value : yield* reserve
    }

    // A failure is not an answer (as before reservations): an error such as a 402, a defect or an interruption
    // releases the key, so the same request may be sent again with it and runs again.
    return yield* Effect.uninterruptibleMask((restore) =>
      restore(run).pipe(
        Effect.tap((result) =>
          Schema.encode(output)(result).pipe(
            Effect.orDie,
            Effect.flatMap((response) => store.answer(workspace.id, key, holder, response))
          )
        ),
        Effect.onError(() => store.release(workspace.id, key, holder))
      )
    )
  }).pipe(withSpan("withIdempotency"))
