// Outbox on PostgreSQL: tables outbox_events and delivery_attempts.
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option } from "effect"
import { type DeliveryAttempt, Outbox, type OutboxEvent } from "../../domain/ports/outbox.ts"
import { isoText, jsonText } from "./pg-values.ts"

interface EventRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: OutboxEvent["name"]
  readonly subject_id: string
  readonly dedupe_key: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly url: string
  readonly created_at: Date
  readonly state: OutboxEvent["state"]
}

const toEvent = (row: EventRow): OutboxEvent => ({
  id: row.id,
  workspaceId: row.workspace_id,
  name: row.name,
  subjectId: row.subject_id,
  dedupeKey: row.dedupe_key,
  payload: row.payload,
  url: row.url,
  createdAt: isoText(row.created_at),
  state: row.state
})

interface AttemptRow {
  readonly event_id: string
  readonly series: number
  readonly attempt: number
  readonly started_at: Date
  readonly duration_ms: number
  readonly status: number | null
  readonly error: string | null
  readonly target: string
}

const toAttempt = (row: AttemptRow): DeliveryAttempt => ({
  eventId: row.event_id,
  series: row.series,
  attempt: row.attempt,
  startedAt: isoText(row.started_at),
  durationMs: row.duration_ms,
  status: row.status,
  error: row.error,
  target: row.target
})

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
          Effect.withSpan("PgOutbox.add")
        ),
      get: (id) =>
        sql<EventRow>`SELECT * FROM outbox_events WHERE id = ${id}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toEvent)),
          Effect.orDie,
          Effect.withSpan("PgOutbox.get")
        ),
      setState: (id, state) =>
        sql`UPDATE outbox_events SET state = ${state} WHERE id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie,
          Effect.withSpan("PgOutbox.setState")
        ),
      recordAttempt: (a) =>
        sql`INSERT INTO delivery_attempts (event_id, series, attempt, started_at, duration_ms, status, error, target)
          VALUES (${a.eventId}, ${a.series}, ${a.attempt}, ${a.startedAt}, ${a.durationMs}, ${a.status}, ${a.error},
            ${a.target})`
          .pipe(Effect.asVoid, Effect.orDie, Effect.withSpan("PgOutbox.recordAttempt")),
      attempts: (eventId) =>
        sql<AttemptRow>`SELECT * FROM delivery_attempts WHERE event_id = ${eventId} ORDER BY series, attempt, seq`.pipe(
          Effect.map((rows) => rows.map(toAttempt)),
          Effect.orDie,
          Effect.withSpan("PgOutbox.attempts")
        ),
      forSubject: (subjectId) =>
        sql<EventRow>`SELECT * FROM outbox_events WHERE subject_id = ${subjectId} ORDER BY seq`.pipe(
          Effect.map((rows) => rows.map(toEvent)),
          Effect.orDie,
          Effect.withSpan("PgOutbox.forSubject")
        ),
      // The cursor is the id of the page's last event; an id that is not the subject's matches nothing.
      deliveryLog: ({ cursor, limit, subjectId }) =>
        Effect.gen(function*() {
          const after = cursor === undefined
            ? sql`TRUE`
            : sql`seq < (SELECT seq FROM outbox_events WHERE id = ${cursor} AND subject_id = ${subjectId})`
          // One row past the page says whether another page follows.
          const rows = yield* sql<EventRow>`SELECT * FROM outbox_events WHERE subject_id = ${subjectId} AND ${after}
            ORDER BY seq DESC LIMIT ${limit + 1}`
          const events = rows.slice(0, limit).map(toEvent)
          const attempts = events.length === 0 ? [] : yield* sql<AttemptRow>`SELECT * FROM delivery_attempts
            WHERE ${sql.in("event_id", events.map((e) => e.id))} ORDER BY series, attempt, seq`
          const last = events[events.length - 1]
          return {
            items: events.map((event) => ({
              event,
              attempts: attempts.filter((a) => a.event_id === event.id).map(toAttempt)
            })),
            nextCursor: rows.length > limit && last !== undefined ? last.id : null
          }
        }).pipe(Effect.orDie, Effect.withSpan("PgOutbox.deliveryLog"))
    }))
)
