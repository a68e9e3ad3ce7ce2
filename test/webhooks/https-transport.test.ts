import { lookup as dnsLookup } from "node:dns"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { directConnect, makeOutboundClient, OutboundClient, USER_AGENT } from "../../adapters/outbound/outbound-client.ts"
import { HttpsWebhookTransportLive } from "../../adapters/webhooks/https-transport.ts"
import { WebhookTransport } from "../../domain/ports/webhook-transport.ts"
import { ATTEMPT_TIMEOUT_MS } from "../../domain/webhooks.ts"
import { httpsReceiver } from "../support/https-receiver.ts"

const transport = HttpsWebhookTransportLive.pipe(
  Layer.provide(
    Layer.succeed(OutboundClient, makeOutboundClient({ allowLoopback: true, resolve: dnsLookup, connect: directConnect }))
  )
)

// The path and query carry the receiver's secret; no error may repeat them.
const SECRET_PATH = "/hooks/s3cr3t-path?token=s3cr3t-query"

const post = (url: string, timeoutMs = ATTEMPT_TIMEOUT_MS, signal?: AbortSignal) =>
  WebhookTransport.pipe(
    Effect.flatMap((webhooks) =>
      webhooks.post({
        url,
        headers: { "content-type": "application/json", "webhook-id": "evt_1" },
        body: `{"event":"video.completed"}`,
        timeoutMs,
        ...(signal === undefined ? {} : { signal })
      })
    ),
    Effect.provide(transport)
  )

const expectUnreachable = (outcome: Effect.Effect.Success<ReturnType<typeof post>>) => {
  expect(outcome._tag).toBe("Unreachable")
  const error = outcome._tag === "Unreachable" ? outcome.error : ""
  expect(error).not.toContain("s3cr3t")
  expect(error).not.toContain("/hooks")
  return error
}

describe("HttpsWebhookTransport", () => {
  it.scopedLive("a trusted receiver answering 200 is Answered 200, with the body, headers and a User-Agent", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      expect(yield* post(`${receiver.url}${SECRET_PATH}`)).toEqual({ _tag: "Answered", status: 200 })
      expect(receiver.requests).toHaveLength(1)
      const [request] = receiver.requests
      expect(request).toMatchObject({ method: "POST", path: SECRET_PATH, body: `{"event":"video.completed"}` })
      expect(request?.headers).toMatchObject({
        "content-type": "application/json",
        "webhook-id": "evt_1",
        "user-agent": USER_AGENT
      })
    })
  )

  it.scopedLive("an answer of 500 is Answered 500", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ status: 500, body: "boom" })
      expect(yield* post(`${receiver.url}${SECRET_PATH}`)).toEqual({ _tag: "Answered", status: 500 })
    })
  )

  it.scopedLive("a 302 is Answered 302 and its Location is not visited", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour((request) =>
        request.path === "/elsewhere" ? { status: 200 } : { status: 302, headers: { location: "/elsewhere" } }
      )
      expect(yield* post(`${receiver.url}${SECRET_PATH}`)).toEqual({ _tag: "Answered", status: 302 })
      expect(receiver.requests.map((request) => request.path)).toEqual([SECRET_PATH])
    })
  )

  it.scopedLive("an untrusted certificate is Unreachable (TLS)", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver({ trusted: false })
      const error = expectUnreachable(yield* post(`${receiver.url}${SECRET_PATH}`))
      expect(error).toMatch(/^TLS with 127\.0\.0\.1:\d+ failed: self-signed certificate$/)
      expect(receiver.requests).toHaveLength(0)
    })
  )

  it.scopedLive("a receiver that never answers is Unreachable after the timeout", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ hang: true })
      const error = expectUnreachable(yield* post(`${receiver.url}${SECRET_PATH}`, 300))
      expect(error).toMatch(/^127\.0\.0\.1:\d+ did not answer completely within 300 ms$/)
      expect(receiver.requests).toHaveLength(1)
    })
  )

  it.scopedLive("an aborted signal ends a POST the receiver holds, long before its own timeout", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      receiver.setBehaviour({ hang: true })
      const stop = new AbortController()
      setTimeout(() => stop.abort(), 200)
      const started = Date.now()
      const error = expectUnreachable(yield* post(`${receiver.url}${SECRET_PATH}`, 60_000, stop.signal))
      expect(error).toMatch(/^127\.0\.0\.1:\d+ did not answer in time$/)
      expect(Date.now() - started).toBeLessThan(30_000)
      expect(receiver.requests).toHaveLength(1)
      // A signal aborted before the POST sends nothing that waits: it ends at once.
      expectUnreachable(yield* post(`${receiver.url}${SECRET_PATH}`, 60_000, AbortSignal.abort()))
    })
  )

  it.scopedLive("a closed port is Unreachable, naming only the host", () =>
    Effect.gen(function* () {
      const receiver = yield* httpsReceiver()
      const url = receiver.url
      yield* Effect.promise(receiver.close)
      const error = expectUnreachable(yield* post(`${url}${SECRET_PATH}`))
      expect(error).toMatch(/^could not reach 127\.0\.0\.1:\d+: connect ECONNREFUSED 127\.0\.0\.1:\d+$/)
    })
  )

  it.effect("http:// and addresses outside the policy are Unreachable without a request", () =>
    Effect.gen(function* () {
      expect(expectUnreachable(yield* post(`http://127.0.0.1:9${SECRET_PATH}`))).toBe("webhook URLs must be https")
      expect(expectUnreachable(yield* post(`https://169.254.169.254${SECRET_PATH}`))).toBe(
        "169.254.169.254 is not a public address"
      )
      expect(expectUnreachable(yield* post("not a url"))).toBe("webhook URLs must be https")
    })
  )
})
