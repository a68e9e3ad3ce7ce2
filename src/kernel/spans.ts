// How the service opens spans: as Effect does, except while tracing is off (no OTLP endpoint, see
// adapters/telemetry/otlp-tracing.ts), when the effect runs as it is. Effect would still make a span
// then, a no-op one, and put it in the fiber's context: a copy of the whole context (the served API's
// holds some 56 services) for every span, several in each request, to record nothing. Skipping them took
// an eighth of the CPU of a polled GET and a quarter of an MCP tool call's (docs/architecture.md, "Spans").
import { Effect, FiberRef, type Tracer } from "effect"

/** `traced` while tracing is on, else `plain`. */
const whenTracing = <A, E, R>(traced: Effect.Effect<A, E, R>, plain: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiberRuntime<A, E, R>((fiber) => (fiber.getFiberRef(FiberRef.currentTracerEnabled) ? traced : plain))

/** Effect.withSpan, skipped while tracing is off. */
export const withSpan = (name: string, options?: Tracer.SpanOptions) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  // Made here, as Effect.withSpan is, so that a span that captures its stack trace captures this caller's.
  whenTracing(Effect.withSpan(self, name, options), self)

/** Effect.withParentSpan, skipped while tracing is off: for work under a span opened with Effect.useSpan. */
export const withParentSpan = (span: Tracer.AnySpan) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  whenTracing(Effect.withParentSpan(self, span), self)
