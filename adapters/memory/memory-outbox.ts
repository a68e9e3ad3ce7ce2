// Outbox over the in-memory database.
import { Effect, Layer, Option } from "effect"
import { Outbox, type OutboxEvent } from "../../domain/ports/outbox.ts"
import { MemoryDatabase, type Tables, updateRow, withRow } from "./memory-database.ts"

export const MemoryOutboxLive = Layer.effect(
  Outbox,
  Effect.map(MemoryDatabase, (db) =>
    Outbox.of({
      add: (event) =>
        db.modify((t): readonly [Option.Option<OutboxEvent>, Tables] =>
          [...t.events.values()].some((e) => e.dedupeKey === event.dedupeKey)
            ? [Option.none(), t]
            : [Option.some(event), { ...t, events: withRow(t.events, event.id, event) }]
        ).pipe(Effect.withSpan("MemoryOutbox.add")),
      get: (id) => db.read((t) => Option.fromNullable(t.events.get(id))).pipe(Effect.withSpan("MemoryOutbox.get")),
      setState: (id, state) =>
        db.write((t) => ({ ...t, events: updateRow(t.events, id, (e) => ({ ...e, state })) })).pipe(
          Effect.withSpan("MemoryOutbox.setState")
        ),
      recordAttempt: (attempt) =>
        db.write((t) => ({ ...t, deliveryAttempts: [...t.deliveryAttempts, attempt] })).pipe(
          Effect.withSpan("MemoryOutbox.recordAttempt")
        ),
      attempts: (eventId) =>
        db.read((t) => t.deliveryAttempts.filter((a) => a.eventId === eventId).sort((a, b) => a.attempt - b.attempt))
          .pipe(Effect.withSpan("MemoryOutbox.attempts")),
      forSubject: (subjectId) =>
        db.read((t) => [...t.events.values()].filter((e) => e.subjectId === subjectId)).pipe(
          Effect.withSpan("MemoryOutbox.forSubject")
        )
    }))
)
