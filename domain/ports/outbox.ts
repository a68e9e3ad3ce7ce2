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
  readonly attempt: number
  readonly startedAt: string
  readonly durationMs: number
  readonly status: number | null
  readonly error: string | null
  /** The URL with its credentials removed. */
  readonly target: string
}

export interface OutboxShape {
  /** `None` when an event with the same dedupe key exists. */
  readonly add: (event: OutboxEvent) => Effect.Effect<Option.Option<OutboxEvent>>
  readonly get: (id: string) => Effect.Effect<Option.Option<OutboxEvent>>
  readonly setState: (id: string, state: OutboxEvent["state"]) => Effect.Effect<void>
  readonly recordAttempt: (attempt: DeliveryAttempt) => Effect.Effect<void>
  readonly attempts: (eventId: string) => Effect.Effect<ReadonlyArray<DeliveryAttempt>>
  readonly forSubject: (subjectId: string) => Effect.Effect<ReadonlyArray<OutboxEvent>>
}
export class Outbox extends Context.Tag("Outbox")<Outbox, OutboxShape>() {}
