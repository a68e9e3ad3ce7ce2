// How the service opens spans: as Effect does, except where the span would record nothing, when the
// effect runs as it is. That is while tracing is off (no OTLP endpoint, see adapters/telemetry/otlp-tracing.ts),
// and inside a trace the sampler dropped (adapters/telemetry/trace-sampler.ts): its first span already
// carries its ids to whatever it queues, and the spans under it would record nothing. Effect would still
// make each such span and put it in the fiber's context: a copy of the whole context (the served API's
// holds some 56 services) for every span, several in each request. Skipping them took an eighth of the
// CPU of a polled GET and a quarter of an MCP tool call's (docs/architecture.md, "Spans").
import { Context, Effect, FiberRef, Option, Tracer } from "effect"

/** Whether a span opened here, under the context's span (or `options`' parent), would record anything. */
const records = (context: Context.Context<never>, options: Tracer.SpanOptions | undefined): boolean => {
  // A span with a parent of its own (a job's, from its row) or a new root decides afresh: it is opened.
  if (options?.parent !== undefined || options?.root === true) return true
  const parent = Context.getOption(context, Tracer.ParentSpan)
  return Option.isNone(parent) || parent.value.sampled
}

/** Effect.withSpan, skipped while tracing is off and inside a dropped trace. */
export const withSpan = (name: string, options?: Tracer.SpanOptions) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  // Made here, as Effect.withSpan is, so that a span that captures its stack trace captures this caller's.
  const spanned = Effect.withSpan(self, name, options)
  return Effect.withFiberRuntime<A, E, R>((fiber) =>
    fiber.getFiberRef(FiberRef.currentTracerEnabled) && records(fiber.getFiberRef(FiberRef.currentContext), options) ? spanned : self
  )
}

/**
 * Effect.withParentSpan, skipped while tracing is off: for work under a span opened with Effect.useSpan. A
 * dropped trace's span is still put in the context, so that the spans under it see it was dropped.
 */
export const withParentSpan = (span: Tracer.AnySpan) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => {
  const under = Effect.withParentSpan(self, span)
  return Effect.withFiberRuntime<A, E, R>((fiber) => (fiber.getFiberRef(FiberRef.currentTracerEnabled) ? under : self))
}
