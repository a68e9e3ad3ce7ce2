// Trace context across the queue: a job records the W3C `traceparent` of the span that queued it, and
// the worker that runs it continues that trace. With tracing off every span is a no-op and nothing is
// recorded.
import { Headers, HttpTraceContext } from "@effect/platform"
import { Effect, Option, type Tracer } from "effect"

/** The current span as a `traceparent` value; None outside a span or with tracing off. */
export const currentTraceParent: Effect.Effect<Option.Option<string>> = Effect.map(
  Effect.option(Effect.currentSpan),
  Option.flatMap((span) => span.traceId === "noop" ? Option.none() : Option.fromNullable(HttpTraceContext.toHeaders(span)["traceparent"]))
)

/** The span a recorded `traceparent` names, to parent the spans that continue its trace. */
export const spanOfTraceParent = (traceParent: string | null): Option.Option<Tracer.ExternalSpan> =>
  traceParent === null ? Option.none() : HttpTraceContext.w3c(Headers.fromInput({ traceparent: traceParent }))
