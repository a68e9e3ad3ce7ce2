// Outbox on PostgreSQL: tables outbox_events and delivery_attempts.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { type DeliveryAttempt, Outbox, type OutboxEvent } from "../../domain/ports/outbox.ts"
import { WebhookEventName } from "../../domain/video.ts"
import { rowDecoder } from "./pg-rows.ts"
import { IsoFromDate, jsonText } from "./pg-values.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const EventRow = Schema.Struct({
  id: Schema.String,
  workspace_id: Schema.String,
  name: WebhookEventName,
  subject_id: Schema.String,
  dedupe_key: Schema.String,
  // The snapshot of whatever record the event is about (json: its key order kept).
  payload: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  url: Schema.String,
  created_at: IsoFromDate,
  state: Schema.Literal("pending", "delivered", "dropped") satisfies Schema.Schema<OutboxEvent["state"]>
}).pipe(Schema.rename({ workspace_id: "workspaceId", subject_id: "subjectId", dedupe_key: "dedupeKey", created_at: "createdAt" }))

const AttemptRow = Schema.Struct({
  event_id: Schema.String,
  series: Schema.Number,
  attempt: Schema.Number,
  started_at: IsoFromDate,
  duration_ms: Schema.Number,
  status: Schema.NullOr(Schema.Number),
  error: Schema.NullOr(Schema.String),
  target: Schema.String
}).pipe(Schema.rename({ event_id: "eventId", started_at: "startedAt", duration_ms: "durationMs" }))

const eventRows = rowDecoder("outbox_events", EventRow)
const attemptRows = rowDecoder("delivery_attempts", AttemptRow, ["seq"])

export const PgOutboxLive = Layer.effect(
  Outbox,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Outbox.of({
      add: (e) =>
        sql`INSERT INTO outbox_events (id, workspace_id, name, subject_id, dedupe_key, payload, url, created_at, state)
          VALUES (${e.id}, ${e.workspaceId}, ${e.name}, ${e.subjectId}, ${e.dedupeKey}, ${jsonText(e.payload)}, ${e.url},
            ${e.createdAt}, ${e.state})
          ON CONFLICT (dedupe_key) DO NOTHING
          RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0 ? Option.some(e) : Option.none()),
          Effect.orDie,
          withSpan("PgOutbox.add")
        ),
      get: (id) =>
        sql`SELECT * FROM outbox_events WHERE id = ${id}`.pipe(
          Effect.flatMap(eventRows.first),
          Effect.orDie,
          withSpan("PgOutbox.get")
        ),
      setState: (id, state) =>
        sql`UPDATE outbox_events SET state = ${state} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          withSpan("PgOutbox.setState")
        ),
      pending: (deliveries) =>
        sql`SELECT asked.ord, e.*, (SELECT count(*)::int FROM delivery_attempts a WHERE a.event_id = e.id AND a.series = asked.series)
            AS attempts_made
          FROM unnest(${deliveries.map((d) => d.eventId)}::text[], ${deliveries.map((d) => d.series)}::int[])
            WITH ORDINALITY AS asked(event_id, series, ord)
          JOIN outbox_events e ON e.id = asked.event_id AND e.state = 'pending'`.pipe(
          Effect.flatMap(Effect.forEach((row) =>
            Effect.map(eventRows.one(row), (event) => [Number(row["ord"]) - 1, { event, attemptsMade: Number(row["attempts_made"]) }] as const)
          )),
          Effect.map((found) => {
            const byPlace = new Map(found)
            return deliveries.map((_, i) => Option.fromNullable(byPlace.get(i)))
          }),
          Effect.orDie,
          withSpan("PgOutbox.pending")
        ),
      // One statement: the attempts and the states they leave their events in land together.
      recordAttempts: (recorded) => {
        const column = <A>(f: (a: DeliveryAttempt) => A) => recorded.map(({ attempt }) => f(attempt))
        return sql`WITH attempt AS (
            INSERT INTO delivery_attempts (event_id, series, attempt, started_at, duration_ms, status, error, target)
            SELECT * FROM unnest(${column((a) => a.eventId)}::text[], ${column((a) => a.series)}::int[],
              ${column((a) => a.attempt)}::int[], ${column((a) => a.startedAt)}::timestamptz[], ${column((a) => a.durationMs)}::float8[],
              ${column((a) => a.status)}::int[], ${column((a) => a.error)}::text[], ${column((a) => a.target)}::text[])
          )
          UPDATE outbox_events SET state = settled.state
          FROM unnest(${recorded.map(({ attempt }) => attempt.eventId)}::text[], ${recorded.map(({ settles }) => settles ?? null)}::text[])
            AS settled(id, state)
          WHERE outbox_events.id = settled.id AND settled.state IS NOT NULL`
          .pipe(Effect.asVoid, Effect.orDie, withSpan("PgOutbox.recordAttempts"))
      },
      attempts: (eventId) =>
        sql`SELECT * FROM delivery_attempts WHERE event_id = ${eventId} ORDER BY series, attempt, seq`.pipe(
          Effect.flatMap(attemptRows.all),
          Effect.orDie,
          withSpan("PgOutbox.attempts")
        ),
      forSubject: (subjectId) =>
        sql`SELECT * FROM outbox_events WHERE subject_id = ${subjectId} ORDER BY seq`.pipe(
          Effect.flatMap(eventRows.all),
          Effect.orDie,
          withSpan("PgOutbox.forSubject")
        ),
      // The cursor is the id of the page's last event; an id that is not the subject's matches nothing.
      deliveryLog: ({ cursor, limit, subjectId }) =>
        Effect.gen(function*() {
          const after = cursor === undefined
            ? sql`TRUE`
            : sql`seq < (SELECT seq FROM outbox_events WHERE id = ${cursor} AND subject_id = ${subjectId})`
          // One row past the page says whether another page follows.
          const rows = yield* sql`SELECT * FROM outbox_events WHERE subject_id = ${subjectId} AND ${after}
            ORDER BY seq DESC LIMIT ${limit + 1}`
          const events = yield* eventRows.all(rows.slice(0, limit))
          const attempts = events.length === 0 ? [] : yield* sql`SELECT * FROM delivery_attempts
            WHERE ${sql.in("event_id", events.map((e) => e.id))} ORDER BY series, attempt, seq`.pipe(
              Effect.flatMap(attemptRows.all)
            )
          const last = events[events.length - 1]
          return {
            items: events.map((event) => ({ event, attempts: attempts.filter((a) => a.eventId === event.id) })),
            nextCursor: rows.length > limit && last !== undefined ? last.id : null
          }
        }).pipe(Effect.orDie, withSpan("PgOutbox.deliveryLog"))
    }))
)
