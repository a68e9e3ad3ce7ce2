// Webhook events: their payload, their headers and the retry schedule.
import type { WebhookEventName } from "./video.ts"

/** Waits after a failed attempt, measured from the END of that attempt (so a timeout stretches the window). */
export const RETRY_WAITS_SECONDS: ReadonlyArray<number> = [
  30,
  2 * 60,
  10 * 60,
  30 * 60,
  60 * 60,
  2 * 60 * 60,
  4 * 60 * 60,
  8 * 60 * 60,
  8 * 60 * 60
]
export const MAX_ATTEMPTS = RETRY_WAITS_SECONDS.length + 1
export const ATTEMPT_TIMEOUT_MS = 10_000

/**
 * When attempt number `attempt` (1-based) failed and ended at `endedAtMs`, when the next one runs;
 * `null` means the event is dropped.
 */
export const nextAttemptAt = (attempt: number, endedAtMs: number): number | null => {
  const wait = RETRY_WAITS_SECONDS[attempt - 1]
  return wait === undefined ? null : endedAtMs + wait * 1000
}

/** 2xx acknowledges; anything else (3xx included: redirects are never followed) is a failure. */
export const isAcknowledged = (status: number): boolean => status >= 200 && status < 300

export interface WebhookMessage {
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * The delivery of one stored event: body and headers as the spec lists them, plus the Standard
 * Webhooks `webhook-id` and `webhook-timestamp` (the signature is added by the sender, which holds the key).
 */
export const webhookMessage = (event: {
  readonly eventId: string
  readonly name: WebhookEventName
  readonly subjectId: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly timestampSeconds: number
}): WebhookMessage => {
  const isVideo = event.name.startsWith("video.")
  return {
    headers: {
      "content-type": "application/json",
      "x-service-event": event.name,
      ...(isVideo ? { "x-service-video-id": event.subjectId } : { "x-service-job-id": event.subjectId }),
      "webhook-id": event.eventId,
      "webhook-timestamp": String(event.timestampSeconds)
    },
    body: JSON.stringify({ event: event.name, ...event.payload })
  }
}

/** Hides a URL's credentials (path, query, user info) for logs and attempt records. */
export const redactUrl = (raw: string): string => {
  try {
    const url = new URL(raw)
    return `${url.protocol}//${url.host}/…`
  } catch {
    return "(invalid url)"
  }
}

/**
 * Redelivery by hand waits this long from the start of an event's latest series of attempts: the
 * automatic schedule (just under 24 hours, timeouts included) is over by then.
 */
export const REDELIVERY_AFTER_MS = 24 * 60 * 60 * 1000

/** The latest series of attempts: 1 for the automatic deliveries, one more for each redelivery. */
export const latestSeries = (attempts: ReadonlyArray<{ readonly series: number }>): number =>
  attempts.reduce((latest, a) => Math.max(latest, a.series), 1)

/**
 * When an event may be redelivered: 24 hours after its latest series began (the event's creation for
 * the first series, the first attempt of a redelivery for later ones), and only once that series is
 * over (delivered or dropped). `null` while the event is still being delivered.
 */
export const redeliverableAt = (
  event: { readonly state: "pending" | "delivered" | "dropped"; readonly createdAt: string },
  attempts: ReadonlyArray<{ readonly series: number; readonly startedAt: string }>
): number | null => {
  if (event.state === "pending") return null
  const series = latestSeries(attempts)
  const starts = series === 1 ? [] : attempts.filter((a) => a.series === series).map((a) => Date.parse(a.startedAt))
  return (starts.length === 0 ? Date.parse(event.createdAt) : Math.min(...starts)) + REDELIVERY_AFTER_MS
}
