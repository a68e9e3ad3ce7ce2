// Retried creates with the same Idempotency-Key get the first answer; the same key with another
// body is a conflict. Answers are stored encoded and decoded again, so replays match exactly.
import { Effect, Option, Schema } from "effect"
import { Conflict } from "../../domain/errors.ts"
import { IdempotencyStore } from "../../domain/ports/idempotency-store.ts"
import { CurrentWorkspace } from "./current-workspace.ts"
import { nowIso } from "./now.ts"
import { sha256Hex } from "./secrets.ts"

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
    const previous = yield* store.get(workspace.id, key)
    if (Option.isSome(previous)) {
      if (previous.value.fingerprint !== fingerprint) {
        return yield* new Conflict({
          message: "This Idempotency-Key was already used with a different request. Use a new key for a new request."
        })
      }
      return yield* Schema.decodeUnknown(output)(previous.value.response).pipe(Effect.orDie)
    }
    const result = yield* run
    const response = yield* Schema.encode(output)(result).pipe(Effect.orDie)
    yield* store.put({ workspaceId: workspace.id, key, fingerprint, response, createdAt: yield* nowIso })
    return result
  }).pipe(Effect.withSpan("withIdempotency"))
