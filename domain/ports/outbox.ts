import { Context, type Effect, type Option } from "effect"
import type { WebhookEventName } from "../video.ts"

export interface OutboxEvent {
  readonly id: string
  readonly workspaceId: string
  readonly name: WebhookEventName
  /** The video (or removal job) id. */
  readonly subjectId: string
  /** Unique: one event per piece of work. */
  readonly dedupeKey: string
  /** Snapshot at the terminal status: `{ video: {...} }`. */
  readonly payload: Readonly<Record<string, unknown>>
  /** The receiver's URL at the time; a credential. */
  readonly url: string
  readonly createdAt: string
  readonly state: "pending" | "delivered" | "dropped"
}

export interface DeliveryAttempt {
  readonly eventId: string
  /** 1 for the automatic deliveries; each redelivery starts the next series. */
  readonly series: number
  /** Within its series, from 1. */
  readonly attempt: number
  readonly startedAt: string
  readonly durationMs: number
  readonly status: number | null
  readonly error: string | null
  /** The URL with its credentials removed. */
  readonly target: string
}

/** An attempt to record, with the state it leaves its event in when it settles it. */
export interface RecordedAttempt {
  readonly attempt: DeliveryAttempt
  readonly settles?: "delivered" | "dropped"
}

export interface EventDeliveries {
  readonly event: OutboxEvent
  readonly attempts: ReadonlyArray<DeliveryAttempt>
}

/** An event still waiting for delivery, with the attempts its current series has made. */
export interface PendingDelivery {
  readonly event: OutboxEvent
  readonly attemptsMade: number
}

export interface DeliveryLogPage {
  readonly items: ReadonlyArray<EventDeliveries>
  readonly nextCursor: string | null
}

export interface OutboxShape {
  /** `None` when an event with the same dedupe key exists. */
  readonly add: (event: OutboxEvent) => Effect.Effect<Option.Option<OutboxEvent>>
  readonly get: (id: string) => Effect.Effect<Option.Option<OutboxEvent>>
  readonly setState: (id: string, state: OutboxEvent["state"]) => Effect.Effect<void>
  /**
   * What deliveries read before their attempts, in one read: for each event and series asked for, in
   * order, `None` unless the event is pending.
   */
  readonly pending: (
    deliveries: ReadonlyArray<{ readonly eventId: string; readonly series: number }>
  ) => Effect.Effect<ReadonlyArray<Option.Option<PendingDelivery>>>
  /** Records attempts and, for each that settles its event, the event's new state: all of them or none. */
  readonly recordAttempts: (attempts: ReadonlyArray<RecordedAttempt>) => Effect.Effect<void>
  readonly attempts: (eventId: string) => Effect.Effect<ReadonlyArray<DeliveryAttempt>>
  readonly forSubject: (subjectId: string) => Effect.Effect<ReadonlyArray<OutboxEvent>>
  /** The subject's events newest first, each with its attempts in order; a cursor no adapter made gives an empty page. */
  readonly deliveryLog: (query: {
    readonly subjectId: string
    readonly limit: number
    readonly cursor: string | undefined
  }) => Effect.Effect<DeliveryLogPage>
}
export class Outbox extends Context.Tag("Outbox")<Outbox, OutboxShape>() {}
