// Webhook deliveries: the retry schedule, what counts as an acknowledgement, and the message sent.
import { describe, expect, it } from "@effect/vitest"
import { FastCheck as fc } from "effect"
import {
  ATTEMPT_TIMEOUT_MS,
  isAcknowledged,
  MAX_ATTEMPTS,
  nextAttemptAt,
  redactUrl,
  RETRY_WAITS_SECONDS,
  webhookMessage
} from "../../domain/webhooks.ts"

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

describe("retry schedule", () => {
  it("waits 30s, 2m, 10m, 30m, 1h, 2h, 4h, 8h, 8h: ten attempts in all", () => {
    expect(RETRY_WAITS_SECONDS).toEqual([30, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 8 * HOUR])
    expect(MAX_ATTEMPTS).toBe(10)
    expect(ATTEMPT_TIMEOUT_MS).toBe(10_000)
  })

  it("measures each wait from the END of the failed attempt", () => {
    const started = 1_700_000_000_000
    const endedAfterTimeout = started + ATTEMPT_TIMEOUT_MS
    expect(nextAttemptAt(1, endedAfterTimeout)).toBe(endedAfterTimeout + 30_000)
    expect(nextAttemptAt(2, 5_000)).toBe(5_000 + 120_000)
    expect(nextAttemptAt(9, 0)).toBe(8 * HOUR * 1000)
  })

  it("drops the event after the 10th attempt", () => {
    expect(nextAttemptAt(10, 0)).toBeNull()
    expect(nextAttemptAt(11, 0)).toBeNull()
  })

  it("spans just under 24 hours, even when every attempt runs into its timeout", () => {
    // 30s + 2m + 10m + 30m + 1h + 2h + 4h + 8h + 8h = 23h 42m 30s of waiting.
    expect(RETRY_WAITS_SECONDS.reduce((a, b) => a + b, 0)).toBe(23 * HOUR + 42 * MINUTE + 30)

    const spanMs = (attemptMs: number): number => {
      let now = 0
      let attempts = 0
      for (;;) {
        attempts += 1
        now += attemptMs
        const next = nextAttemptAt(attempts, now)
        if (next === null) break
        now = next
      }
      expect(attempts).toBe(MAX_ATTEMPTS)
      return now
    }
    expect(spanMs(0)).toBe((23 * HOUR + 42 * MINUTE + 30) * 1000)
    expect(spanMs(ATTEMPT_TIMEOUT_MS)).toBeLessThan(DAY * 1000)
    expect(spanMs(ATTEMPT_TIMEOUT_MS)).toBeGreaterThan(23 * HOUR * 1000)
  })
})

describe("isAcknowledged", () => {
  it("accepts 2xx only; redirects are failures", () => {
    for (const status of [200, 201, 202, 204, 299]) expect(isAcknowledged(status), String(status)).toBe(true)
    for (const status of [100, 199, 300, 301, 302, 304, 307, 308, 400, 404, 410, 429, 500, 503]) {
      expect(isAcknowledged(status), String(status)).toBe(false)
    }
  })

  it.prop("agrees with the 2xx class", { status: fc.integer({ min: 100, max: 599 }) }, ({ status }) => {
    expect(isAcknowledged(status)).toBe(Math.floor(status / 100) === 2)
  })
})

describe("webhookMessage", () => {
  const video = { id: "0b9f3c1e-4d2a-4c6b-9e8f-1a2b3c4d5e6f", status: "completed", step: "completed" }

  it("sends a video event with the spec's headers and a body of {event, video}", () => {
    const message = webhookMessage({
      eventId: "evt_1",
      name: "video.completed",
      subjectId: video.id,
      payload: { video },
      timestampSeconds: 1_700_000_000
    })
    expect(message.headers).toEqual({
      "content-type": "application/json",
      "x-service-event": "video.completed",
      "x-service-video-id": video.id,
      "webhook-id": "evt_1",
      "webhook-timestamp": "1700000000"
    })
    expect(JSON.parse(message.body)).toEqual({ event: "video.completed", video })
  })

  it("mirrors body.video.id in the video id header", () => {
    const message = webhookMessage({
      eventId: "evt_2",
      name: "video.failed",
      subjectId: video.id,
      payload: { video: { ...video, status: "failed", error: "no speech" } },
      timestampSeconds: 1
    })
    const body = JSON.parse(message.body) as { event: string; video: { id: string; error: string } }
    expect(message.headers["x-service-video-id"]).toBe(body.video.id)
    expect(body).toMatchObject({ event: "video.failed", video: { error: "no speech" } })
  })

  it("sends a caption removal event with the job id header instead", () => {
    const message = webhookMessage({
      eventId: "evt_3",
      name: "caption_removal.failed",
      subjectId: "job-7",
      payload: { captionRemoval: { id: "job-7", refunded: true } },
      timestampSeconds: 2
    })
    expect(message.headers["x-service-job-id"]).toBe("job-7")
    expect(message.headers["x-service-event"]).toBe("caption_removal.failed")
    expect("x-service-video-id" in message.headers).toBe(false)
    expect(JSON.parse(message.body)).toEqual({
      event: "caption_removal.failed",
      captionRemoval: { id: "job-7", refunded: true }
    })
  })
})

describe("redactUrl", () => {
  it("keeps scheme and host, hiding user info, path, query and fragment", () => {
    const redacted = redactUrl("https://user:pa55@hooks.example.com:8443/s3cret/path?token=t0ken#frag")
    expect(redacted).toBe("https://hooks.example.com:8443/…")
    for (const secret of ["user", "pa55", "s3cret", "t0ken", "frag"]) expect(redacted).not.toContain(secret)
  })

  it("does not echo an unparseable value", () => {
    expect(redactUrl("not a url with s3cret")).toBe("(invalid url)")
  })
})
