// Delivers one webhook POST through the outbound client: https only, body discarded, redirects not followed.
// Connections are kept alive: a receiver gets many small POSTs, and a TLS handshake each costs more than the POST.
import { Effect, Layer } from "effect"
import { type DeliveryOutcome, WebhookTransport } from "../../domain/ports/webhook-transport.ts"
import { OutboundClient } from "../outbound/outbound-client.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const isHttps = (url: string): boolean => {
  try {
    return new URL(url).protocol === "https:"
  } catch {
    return false
  }
}

export const HttpsWebhookTransportLive = Layer.effect(
  WebhookTransport,
  Effect.map(OutboundClient, (client) =>
    WebhookTransport.of({
      post: ({ body, headers, signal, timeoutMs, url }) =>
        (isHttps(url)
          ? client.request(url, { method: "POST", headers, body, timeoutMs, maxBytes: 0, keepAlive: true, ...(signal === undefined ? {} : { signal }) }).pipe(
              // A 3xx is returned as is: the domain counts it as a failure, its Location is never visited.
              Effect.map((response): DeliveryOutcome => ({ _tag: "Answered", status: response.status })),
              // Failure messages name the host only: the URL's path and query are the receiver's secret.
              Effect.catchAll((failure) => Effect.succeed<DeliveryOutcome>({ _tag: "Unreachable", error: failure.message }))
            )
          : Effect.succeed<DeliveryOutcome>({ _tag: "Unreachable", error: "webhook URLs must be https" })
        ).pipe(withSpan("HttpsWebhookTransport.post", { captureStackTrace: false }))
    })
  )
)
