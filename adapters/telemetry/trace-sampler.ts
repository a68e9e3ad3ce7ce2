// Which traces are recorded, as OpenTelemetry's parent-based samplers decide: a trace's first span is
// sampled with the configured probability, and every later span follows its parent's decision (across
// processes too: the job row's traceparent carries the flag). Spans of unsampled traces still carry
// their trace's ids, so context propagates, but record nothing and are never exported: a busy API pays
// for the traces it keeps only.
import { Config, ConfigError, Either, type Exit, Option, Tracer } from "effect"
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

/** Random bytes drawn in blocks: one call per id would cost more than the unsampled span saves. */
const pool = { bytes: randomBytes(4096), at: 0 }
const hex = (bytes: number): string => {
  if (pool.at + bytes > pool.bytes.length) {
    pool.bytes = randomBytes(4096)
    pool.at = 0
  }
  pool.at += bytes
  return pool.bytes.toString("hex", pool.at - bytes, pool.at)
}

const NO_ATTRIBUTES: ReadonlyMap<string, unknown> = new Map()

/** A span of an unsampled trace: its ids for propagation, nothing recorded (a class: one is made per span of every request). */
class UnsampledSpan implements Tracer.Span {
  readonly _tag = "Span"
  readonly spanId = hex(8)
  readonly traceId: string
  readonly sampled = false
  readonly attributes = NO_ATTRIBUTES
  status: Tracer.SpanStatus
  constructor(
    readonly name: string,
    readonly parent: Option.Option<Tracer.AnySpan>,
    readonly context: Tracer.Span["context"],
    readonly links: ReadonlyArray<Tracer.SpanLink>,
    startTime: bigint,
    readonly kind: Tracer.SpanKind
  ) {
    this.traceId = parent._tag === "Some" ? parent.value.traceId : hex(16)
    this.status = { _tag: "Started", startTime }
  }
  end(endTime: bigint, exit: Exit.Exit<unknown, unknown>): void {
    this.status = { _tag: "Ended", startTime: this.status.startTime, endTime, exit }
  }
  attribute(): void {}
  event(): void {}
  addLinks(): void {}
}

/** `tracer` for the sampled traces, unsampled spans for the rest; `ratio` of new traces are sampled. */
export const sampledTracer = (tracer: Tracer.Tracer, ratio: number, random: () => number = Math.random): Tracer.Tracer =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const sampled = Option.match(parent, { onNone: () => ratio >= 1 || random() < ratio, onSome: (p) => p.sampled })
      return sampled
        ? tracer.span(name, parent, context, links, startTime, kind, options)
        : new UnsampledSpan(name, parent, context, links, startTime, kind)
    },
    context: (f, fiber) => tracer.context(f, fiber)
  })
