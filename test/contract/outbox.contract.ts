// What every Outbox adapter must do.
import { randomUUID } from "node:crypto"
import { expect, layer } from "@effect/vitest"
import { Effect, type Layer, Option } from "effect"
import { type DeliveryAttempt, Outbox, type OutboxEvent } from "../../domain/ports/outbox.ts"

const anEvent = (subjectId: string, changes: Partial<OutboxEvent> = {}): OutboxEvent => ({
  id: randomUUID(),
  workspaceId: randomUUID(),
  name: "video.completed",
  subjectId,
  dedupeKey: `${subjectId}:0`,
  payload: { video: { id: subjectId, status: "completed", duration: 3.5, nested: { ok: true } } },
  url: "https://hooks.example.com/in?token=secret",
  createdAt: "2025-01-02T03:04:05.678Z",
  state: "pending",
  ...changes
})

const anAttempt = (eventId: string, attempt: number, series = 1): DeliveryAttempt => ({
  eventId,
  series,
  attempt,
  startedAt: `2025-01-02T03:0${attempt}:00.000Z`,
  durationMs: 120 + attempt,
  status: attempt === 1 ? null : 500,
  error: attempt === 1 ? "connection refused" : "HTTP 500",
  target: "https://hooks.example.com/in"
})

export const outboxContract = (name: string, stores: Layer.Layer<Outbox, unknown>): void =>
  layer(stores)(`Outbox (${name})`, (it) => {
    it.effect("adds one event per dedupe key", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const event = anEvent(randomUUID())
        expect(Option.getOrThrow(yield* outbox.add(event))).toEqual(event)
        const duplicate = { ...event, id: randomUUID(), name: "video.failed" as const }
        expect(Option.isNone(yield* outbox.add(duplicate))).toBe(true)
        expect(Option.getOrThrow(yield* outbox.get(event.id))).toEqual(event)
        expect(Option.isNone(yield* outbox.get(duplicate.id))).toBe(true)
      }))

    it.effect("changes an event's state", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const event = anEvent(randomUUID())
        yield* outbox.add(event)
        yield* outbox.setState(event.id, "delivered")
        expect(Option.getOrThrow(yield* outbox.get(event.id)).state).toBe("delivered")
        yield* outbox.setState(event.id, "dropped")
        expect(Option.getOrThrow(yield* outbox.get(event.id))).toEqual({ ...event, state: "dropped" })
      }))

    it.effect("records delivery attempts in order", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const event = anEvent(randomUUID())
        yield* outbox.add(event)
        const attempts = [1, 2, 3].map((n) => anAttempt(event.id, n))
        yield* outbox.recordAttempts([{ attempt: attempts[0]! }])
        yield* outbox.recordAttempts([{ attempt: attempts[1]! }, { attempt: attempts[2]! }])
        expect(yield* outbox.attempts(event.id)).toEqual(attempts)
        expect(yield* outbox.attempts(randomUUID())).toEqual([])
      }))

    it.effect("reads a pending event with the attempts of one series, and settles it with its attempt", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const event = anEvent(randomUUID())
        const pendingOne = (eventId: string, series: number) => Effect.map(outbox.pending([{ eventId, series }]), (found) => found[0]!)
        yield* outbox.add(event)
        expect(yield* pendingOne(event.id, 1)).toEqual(Option.some({ event, attemptsMade: 0 }))
        yield* outbox.recordAttempts([{ attempt: anAttempt(event.id, 1) }])
        yield* outbox.recordAttempts([{ attempt: anAttempt(event.id, 2) }])
        yield* outbox.recordAttempts([{ attempt: anAttempt(event.id, 1, 2) }])
        expect(yield* pendingOne(event.id, 1)).toEqual(Option.some({ event, attemptsMade: 2 }))
        expect(yield* pendingOne(event.id, 2)).toEqual(Option.some({ event, attemptsMade: 1 }))
        const settling = anAttempt(event.id, 2, 2)
        yield* outbox.recordAttempts([{ attempt: settling, settles: "delivered" }])
        expect(Option.getOrThrow(yield* outbox.get(event.id)).state).toBe("delivered")
        expect((yield* outbox.attempts(event.id)).at(-1)).toEqual(settling)
        expect(Option.isNone(yield* pendingOne(event.id, 2))).toBe(true)
        expect(Option.isNone(yield* pendingOne(randomUUID(), 1))).toBe(true)
        const dropped = anEvent(randomUUID())
        yield* outbox.add(dropped)
        yield* outbox.recordAttempts([{ attempt: anAttempt(dropped.id, 1), settles: "dropped" }])
        expect(Option.getOrThrow(yield* outbox.get(dropped.id)).state).toBe("dropped")
      }))

    it.effect("reads many deliveries in one go, in the order asked, and records a batch's attempts and settlements together", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const [a, b, c] = [anEvent(randomUUID()), anEvent(randomUUID()), anEvent(randomUUID())]
        for (const event of [a, b, c]) yield* outbox.add(event)
        yield* outbox.recordAttempts([{ attempt: anAttempt(b.id, 1) }, { attempt: anAttempt(b.id, 2) }, { attempt: anAttempt(c.id, 1) }])
        yield* outbox.setState(c.id, "delivered")
        const unknown = randomUUID()
        expect(yield* outbox.pending([
          { eventId: b.id, series: 1 },
          { eventId: unknown, series: 1 },
          { eventId: a.id, series: 1 },
          { eventId: c.id, series: 1 },
          { eventId: b.id, series: 2 }
        ])).toEqual([
          Option.some({ event: b, attemptsMade: 2 }),
          Option.none(),
          Option.some({ event: a, attemptsMade: 0 }),
          Option.none(),
          Option.some({ event: b, attemptsMade: 0 })
        ])
        expect(yield* outbox.pending([])).toEqual([])
        // a delivered, b failed again (still pending), nothing recorded for c.
        const batch = [{ attempt: anAttempt(a.id, 1), settles: "delivered" as const }, { attempt: anAttempt(b.id, 3) }]
        yield* outbox.recordAttempts(batch)
        expect(Option.getOrThrow(yield* outbox.get(a.id)).state).toBe("delivered")
        expect(Option.getOrThrow(yield* outbox.get(b.id)).state).toBe("pending")
        expect(yield* outbox.attempts(a.id)).toEqual([batch[0]!.attempt])
        expect((yield* outbox.attempts(b.id)).map((attempt) => attempt.attempt)).toEqual([1, 2, 3])
        yield* outbox.recordAttempts([])
      }))

    it.effect("finds the events of a subject", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const subjectId = randomUUID()
        const first = anEvent(subjectId, { dedupeKey: `${subjectId}:0`, createdAt: "2025-01-02T03:00:00.000Z" })
        const second = anEvent(subjectId, {
          dedupeKey: `${subjectId}:1`,
          name: "video.failed",
          createdAt: "2025-01-02T04:00:00.000Z"
        })
        yield* outbox.add(first)
        yield* outbox.add(second)
        yield* outbox.add(anEvent(randomUUID()))
        expect(yield* outbox.forSubject(subjectId)).toEqual([first, second])
        expect(yield* outbox.forSubject(randomUUID())).toEqual([])
      }))

    it.effect("orders attempts series by series, each series by attempt", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const event = anEvent(randomUUID())
        yield* outbox.add(event)
        const recorded = [anAttempt(event.id, 1), anAttempt(event.id, 2), anAttempt(event.id, 1, 2), anAttempt(event.id, 2, 2)]
        yield* outbox.recordAttempts(recorded.map((attempt) => ({ attempt })))
        expect(yield* outbox.attempts(event.id)).toEqual(recorded)
      }))

    it.effect("pages a subject's delivery log newest first, each event with its attempts", () =>
      Effect.gen(function*() {
        const outbox = yield* Outbox
        const subjectId = randomUUID()
        const events = Array.from({ length: 5 }, (_, i) => anEvent(subjectId, { dedupeKey: `${subjectId}:${i}` }))
        for (const event of events) yield* outbox.add(event)
        const other = anEvent(randomUUID())
        yield* outbox.add(other)
        const attemptsOfThird = [anAttempt(events[2]!.id, 1), anAttempt(events[2]!.id, 2), anAttempt(events[2]!.id, 1, 2)]
        yield* outbox.recordAttempts(attemptsOfThird.map((attempt) => ({ attempt })))

        const first = yield* outbox.deliveryLog({ subjectId, limit: 2, cursor: undefined })
        expect(first.items.map((i) => i.event)).toEqual([events[4], events[3]])
        expect(first.nextCursor).not.toBeNull()
        const second = yield* outbox.deliveryLog({ subjectId, limit: 2, cursor: first.nextCursor! })
        expect(second.items.map((i) => i.event)).toEqual([events[2], events[1]])
        expect(second.items[0]!.attempts).toEqual(attemptsOfThird)
        expect(second.items[1]!.attempts).toEqual([])
        const third = yield* outbox.deliveryLog({ subjectId, limit: 2, cursor: second.nextCursor! })
        expect(third).toEqual({ items: [{ event: events[0], attempts: [] }], nextCursor: null })

        const whole = yield* outbox.deliveryLog({ subjectId, limit: 5, cursor: undefined })
        expect(whole.items).toHaveLength(5)
        expect(whole.nextCursor).toBeNull()
        expect(yield* outbox.deliveryLog({ subjectId: randomUUID(), limit: 5, cursor: undefined }))
          .toEqual({ items: [], nextCursor: null })
        // A cursor this adapter did not make, or another subject's, gives an empty page rather than a restart.
        expect(yield* outbox.deliveryLog({ subjectId, limit: 5, cursor: "not-a-cursor" }))
          .toEqual({ items: [], nextCursor: null })
        expect(yield* outbox.deliveryLog({ subjectId, limit: 5, cursor: other.id })).toEqual({ items: [], nextCursor: null })
      }))
  })
