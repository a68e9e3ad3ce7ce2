// Which traces are recorded, as OpenTelemetry's parent-based samplers decide: a trace's first span is
// sampled with the configured probability, and every later span follows its parent's decision (across
// processes too: the job row's traceparent carries the flag). Spans of unsampled traces still carry
// their trace's ids, so context propagates, but record nothing and are never exported: a busy API pays
// for the traces it keeps only.
import { Config, ConfigError, Either, Option, Tracer } from "effect"
import { randomBytes } from "node:crypto"

const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const

/**
 * OTEL_TRACES_SAMPLER (default parentbased_always_on) and OTEL_TRACES_SAMPLER_ARG: the share of new traces
 * kept, 0 to 1. Every sampler here honours the parent's decision.
 */
export const SamplingRatioConfig: Config.Config<number> = Config.all({
  sampler: Config.literal(...SAMPLERS)("OTEL_TRACES_SAMPLER").pipe(Config.withDefault("parentbased_always_on" as const)),
  arg: Config.option(Config.number("OTEL_TRACES_SAMPLER_ARG"))
}).pipe(Config.mapOrFail(({ arg, sampler }) => {
  if (sampler.endsWith("always_on")) return Either.right(1)
  if (sampler.endsWith("always_off")) return Either.right(0)
  const ratio = Option.getOrElse(arg, () => 1)
  return ratio >= 0 && ratio <= 1
    ? Either.right(ratio)
    : Either.left(ConfigError.InvalidData(["OTEL_TRACES_SAMPLER_ARG"], "must be between 0 and 1"))
}))

const hex = (bytes: number): string => randomBytes(bytes).toString("hex")

/** A span of an unsampled trace: its ids for propagation, nothing recorded. */
const unsampledSpan = (
  name: string,
  parent: Option.Option<Tracer.AnySpan>,
  context: Tracer.Span["context"],
  links: ReadonlyArray<Tracer.SpanLink>,
  startTime: bigint,
  kind: Tracer.SpanKind
): Tracer.Span => {
  const span: Tracer.Span & { status: Tracer.SpanStatus } = {
    _tag: "Span",
    name,
    spanId: hex(8),
    traceId: Option.match(parent, { onNone: () => hex(16), onSome: (p) => p.traceId }),
    parent,
    context,
    status: { _tag: "Started", startTime },
    attributes: new Map(),
    links,
    sampled: false,
    kind,
    end: (endTime, exit) => {
      span.status = { _tag: "Ended", startTime, endTime, exit }
    },
    attribute: () => undefined,
    event: () => undefined,
    addLinks: () => undefined
  }
  return span
}

/** `tracer` for the sampled traces, unsampled spans for the rest; `ratio` of new traces are sampled. */
export const sampledTracer = (tracer: Tracer.Tracer, ratio: number, random: () => number = Math.random): Tracer.Tracer =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const sampled = Option.match(parent, { onNone: () => ratio >= 1 || random() < ratio, onSome: (p) => p.sampled })
      return sampled
        ? tracer.span(name, parent, context, links, startTime, kind, options)
        : unsampledSpan(name, parent, context, links, startTime, kind)
    },
    context: (f, fiber) => tracer.context(f, fiber)
  })
