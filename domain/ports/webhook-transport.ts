import { Context, type Effect } from "effect"

export type DeliveryOutcome =
  | { readonly _tag: "Answered"; readonly status: number }
  | { readonly _tag: "Unreachable"; readonly error: string }

/**
 * One POST through the outbound guard; never follows redirects; gives up after `timeoutMs`, or as soon as
 * `signal` is aborted (Unreachable either way).
 */
export interface WebhookTransportShape {
  readonly post: (request: {
    readonly url: string
    readonly headers: Readonly<Record<string, string>>
    readonly body: string
    readonly timeoutMs: number
    readonly signal?: AbortSignal
  }) => Effect.Effect<DeliveryOutcome>
}
export class WebhookTransport extends Context.Tag("WebhookTransport")<WebhookTransport, WebhookTransportShape>() {}
