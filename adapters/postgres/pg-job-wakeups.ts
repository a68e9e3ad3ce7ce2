// Wake-up hints for idle workers, over LISTEN/NOTIFY on one dedicated connection, opened by the first
// wait (processes that serve only the API never wait, so they hold no such connection).
//
// A LISTEN is in place only some time after it is asked for, and notifications sent before then are
// lost: so whenever a LISTEN is (re)established every lane wakes, and every waiter re-checks.
//
// The listen stream of sql-pg 0.53 swallows the errors of its connection: once that connection drops,
// notifications stop and nothing says so. So the listener pings itself through the channel every
// heartbeat; a ping that does not come back ends the session and a new LISTEN starts. Until it does,
// waiters simply wait their full time (the poll fallback).
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Clock, Data, Deferred, type Duration, Effect, Option, Ref, Schedule, type Scope, Stream } from "effect"
import type { Lane } from "../../domain/ports/job-queue.ts"

export const JOBS_CHANNEL = "reelwright_jobs"

const LANES: ReadonlyArray<Lane> = ["media", "webhooks"]

const isLane = (payload: string): payload is Lane => (LANES as ReadonlyArray<string>).includes(payload)

/** Our own pings carry this prefix; other processes on the channel ignore them. */
const PING = "ping:"

class PingLost extends Data.TaggedError("PingLost")<{ readonly message: string }> {}

export interface JobWakeupsOptions {
  /** How often the listening connection proves it still receives, and how long each proof may take. */
  readonly heartbeat: Duration.DurationInput
}

export interface JobWakeups {
  /** Returns when `lane` may have new work, or after `maxWait` (measured on the caller's Clock). */
  readonly wait: (lane: Lane, maxWait: Duration.DurationInput) => Effect.Effect<void>
}

/** Listening, once started, lasts as long as the scope. */
export const makeJobWakeups = (
  options: JobWakeupsOptions
): Effect.Effect<JobWakeups, never, PgClient.PgClient | Scope.Scope> =>
  Effect.gen(function*() {
    const pg = yield* PgClient.PgClient
    // One signal per lane, completed (and replaced) when work may have arrived.
    const signals: Record<Lane, Ref.Ref<Deferred.Deferred<void>>> = {
      media: yield* Ref.make(yield* Deferred.make<void>()),
      webhooks: yield* Ref.make(yield* Deferred.make<void>())
    }
    const wake = (lane: Lane) =>
      Deferred.make<void>().pipe(
        Effect.flatMap((next) => Ref.getAndSet(signals[lane], next)),
        Effect.flatMap((current) => Deferred.succeed(current, undefined))
      )
    const wakeAll = Effect.forEach(LANES, wake, { discard: true })
    const wanted = yield* Deferred.make<void>()

    /** One LISTEN: ends (with an error) when it fails or its connection stops answering pings. */
    const session = Effect.gen(function*() {
      const awaited = yield* Ref.make<Option.Option<readonly [string, Deferred.Deferred<void>]>>(Option.none())
      const onPayload = (payload: string) =>
        isLane(payload)
          ? wake(payload)
          : Effect.flatMap(Ref.get(awaited), (pending) =>
            Option.isSome(pending) && pending.value[0] === payload
              ? Deferred.succeed(pending.value[1], undefined)
              : Effect.void)
      const ping = (within: Duration.DurationInput) =>
        Effect.gen(function*() {
          const payload = `${PING}${randomUUID()}`
          const echoed = yield* Deferred.make<void>()
          yield* Ref.set(awaited, Option.some([payload, echoed] as const))
          yield* pg`SELECT pg_notify(${JOBS_CHANNEL}, ${payload})`
          yield* Deferred.await(echoed).pipe(
            Effect.timeoutFail({
              duration: within,
              onTimeout: () => new PingLost({ message: `no ping came back on ${JOBS_CHANNEL} in time` })
            })
          )
        })
      const watch = Effect.gen(function*() {
        // The stream gives no sign when its LISTEN has run: the first ping that comes back is that sign.
        yield* ping("50 millis").pipe(Effect.retry({ schedule: Schedule.recurs(200), while: (e) => e._tag === "PingLost" }))
        yield* wakeAll
        return yield* ping(options.heartbeat).pipe(Effect.delay(options.heartbeat), Effect.forever)
      })
      return yield* Effect.raceFirst(pg.listen(JOBS_CHANNEL).pipe(Stream.runForEach(onPayload)), watch)
    })

    const supervise = session.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("job wake-ups: LISTEN lost; listening again", cause)),
      Effect.zipRight(Effect.sleep("1 second")),
      Effect.forever
    )
    // Forked now, so that it belongs to the scope rather than to the waiter that happens to start it.
    // Pings and reconnects are the connection's own wall-clock business: a TestClock that drives job times
    // must not freeze them (waiters still time out on their own Clock).
    yield* Deferred.await(wanted).pipe(
      Effect.zipRight(supervise),
      Effect.withClock(Clock.make()),
      Effect.forkScoped
    )

    return {
      // The signal is taken first: if this wait opens the LISTEN, the wake-up that follows it reaches this waiter.
      wait: (lane, maxWait) =>
        Ref.get(signals[lane]).pipe(
          Effect.tap(() => Deferred.succeed(wanted, undefined)),
          Effect.flatMap((signal) => Effect.timeoutOption(Deferred.await(signal), maxWait)),
          Effect.asVoid
        )
    }
  })
