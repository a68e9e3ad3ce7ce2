// Outbox over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { type DeliveryAttempt, Outbox, type OutboxEvent } from "../../domain/ports/outbox.ts"
import { MemoryDatabase, type Tables, updateRow, withRow } from "./memory-database.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** An event's attempts, series by series, each series in attempt order. */
const attemptsOf = (t: Tables, eventId: string): ReadonlyArray<DeliveryAttempt> =>
  t.deliveryAttempts.filter((a) => a.eventId === eventId).sort((a, b) => a.series - b.series || a.attempt - b.attempt)

export const MemoryOutboxLive = Layer.effect(
  Outbox,
  Effect.map(MemoryDatabase, (db) =>
    Outbox.of({
      add: (event) =>
        db.modify((t): readonly [Option.Option<OutboxEvent>, Tables] =>
          [...t.events.values()].some((e) => e.dedupeKey === event.dedupeKey)
            ? [Option.none(), t]
            : [Option.some(event), { ...t, events: withRow(t.events, event.id, event) }]
        ).pipe(withSpan("MemoryOutbox.add")),
      get: (id) => db.read((t) => Option.fromNullable(t.events.get(id))).pipe(withSpan("MemoryOutbox.get")),
      setState: (id, state) =>
        db.write((t) => ({ ...t, events: updateRow(t.events, id, (e) => ({ ...e, state })) })).pipe(
          withSpan("MemoryOutbox.setState")
        ),
      pending: (deliveries) =>
        db.read((t) =>
          deliveries.map(({ eventId, series }) =>
            Option.fromNullable(t.events.get(eventId)).pipe(
              Option.filter((event) => event.state === "pending"),
              Option.map((event) => ({
                event,
                attemptsMade: t.deliveryAttempts.filter((a) => a.eventId === eventId && a.series === series).length
              }))
            )
          )
        ).pipe(withSpan("MemoryOutbox.pending")),
      recordAttempts: (recorded) =>
        db.write((t) => {
          const events = new Map(t.events)
          for (const { attempt, settles } of recorded) {
            const event = events.get(attempt.eventId)
            if (settles !== undefined && event !== undefined) events.set(event.id, { ...event, state: settles })
          }
          return { ...t, deliveryAttempts: [...t.deliveryAttempts, ...recorded.map(({ attempt }) => attempt)], events }
        }).pipe(withSpan("MemoryOutbox.recordAttempts")),
      attempts: (eventId) =>
        db.read((t) => attemptsOf(t, eventId)).pipe(withSpan("MemoryOutbox.attempts")),
      forSubject: (subjectId) =>
        db.read((t) => [...t.events.values()].filter((e) => e.subjectId === subjectId)).pipe(
          withSpan("MemoryOutbox.forSubject")
        ),
      // The cursor is the id of the page's last event; the events map keeps the order they were added in.
      deliveryLog: ({ cursor, limit, subjectId }) =>
        db.read((t) => {
          const newestFirst = [...t.events.values()].filter((e) => e.subjectId === subjectId).reverse()
          const start = cursor === undefined ? 0 : newestFirst.findIndex((e) => e.id === cursor) + 1
          if (start === 0 && cursor !== undefined) return { items: [], nextCursor: null }
          const page = newestFirst.slice(start, start + limit)
          const last = page[page.length - 1]
          return {
            items: page.map((event) => ({ event, attempts: attemptsOf(t, event.id) })),
            nextCursor: start + limit < newestFirst.length && last !== undefined ? last.id : null
          }
        }).pipe(withSpan("MemoryOutbox.deliveryLog"))
    }))
)
