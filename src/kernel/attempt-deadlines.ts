// Time limits for many attempts of the same length, kept on Effect's clock by one fiber. Effect.timeout
// races each attempt against a sleep: two fibers forked, and their fiber refs joined, per attempt, which
// on a kept-alive connection cost more than the webhook POST it limited. Here an attempt gets an
// AbortSignal that the keeper aborts when its time is up; the work listens to it.
import { Clock, Duration, Effect, Queue, type Scope } from "effect"

export interface Deadline {
  /** Aborted once the attempt's time is up, unless `end` came first. */
  readonly signal: AbortSignal
  /** The attempt is over: its signal is never aborted now. */
  readonly end: () => void
}

interface Armed {
  readonly at: number
  readonly controller: AbortController
  ended: boolean
}

export interface AttemptDeadlines {
  /** A deadline `ms` from now on Effect's clock. */
  readonly start: Effect.Effect<Deadline>
}

/**
 * Deadlines `ms` after each start, kept while the scope lasts. They come due in the order they were
 * started, all being as long, so the keeper sleeps until the first one still running is due.
 */
export const attemptDeadlines = (ms: number): Effect.Effect<AttemptDeadlines, never, Scope.Scope> =>
  Effect.gen(function*() {
    const started = yield* Queue.unbounded<Armed>()
    const keep = Effect.gen(function*() {
      const waiting: Array<Armed> = []
      while (true) {
        if (waiting.length === 0) waiting.push(yield* Queue.take(started))
        waiting.push(...(yield* Queue.takeAll(started)))
        const now = yield* Clock.currentTimeMillis
        while (waiting.length > 0 && (waiting[0]!.ended || waiting[0]!.at <= now)) {
          const due = waiting.shift()!
          if (!due.ended) due.controller.abort()
        }
        if (waiting.length > 0) yield* Effect.sleep(Duration.millis(waiting[0]!.at - now))
      }
    })
    yield* Effect.forkScoped(keep)
    return {
      start: Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const armed: Armed = { at: now + ms, controller: new AbortController(), ended: false }
        return Effect.as(Queue.offer(started, armed), {
          signal: armed.controller.signal,
          end: () => {
            armed.ended = true
          }
        })
      })
    }
  })
