// The parent-based sampler: a new trace is kept with the configured probability, every later span
// follows its parent (a job continuing a trace from another process included), and an unsampled trace
// still hands on its ids while nothing of it reaches the exporter.
import { describe, expect, it } from "vitest"
import { ConfigProvider, Effect, Either, Option, Tracer } from "effect"
import { SamplingRatioConfig, sampledTracer } from "../../adapters/telemetry/trace-sampler.ts"
import { spanOfTraceParent } from "../../src/kernel/trace-context.ts"

/** Effect's own tracer, remembering the names of the spans it made. */
const recording = () => {
  const made: Array<string> = []
  const native = Effect.runSync(Effect.tracer)
  const tracer = Tracer.make({
    span: (name, ...rest) => {
      made.push(name)
      return native.span(name, ...rest)
    },
    context: (f, fiber) => native.context(f, fiber)
  })
  return { made, tracer }
}

const run = (tracer: Tracer.Tracer) =>
  Effect.runSync(
    Effect.gen(function*() {
      const root = yield* Effect.currentSpan
      const child = yield* Effect.currentSpan.pipe(Effect.withSpan("child"))
      return { root, child }
    }).pipe(Effect.withSpan("root"), Effect.withTracer(tracer), Effect.orDie)
  )

describe("sampledTracer", () => {
  it("keeps a new trace when the draw falls under the ratio, with every span under it", () => {
    const { made, tracer } = recording()
    const { child, root } = run(sampledTracer(tracer, 0.25, () => 0.2))
    expect(made).toEqual(["root", "child"])
    expect([root.sampled, child.sampled]).toEqual([true, true])
  })

  it("drops a new trace otherwise, its spans still one trace that propagates as unsampled", () => {
    const { made, tracer } = recording()
    const { child, root } = run(sampledTracer(tracer, 0.25, () => 0.3))
    expect(made).toEqual([])
    expect([root.sampled, child.sampled]).toEqual([false, false])
    expect(child.traceId).toBe(root.traceId)
    expect(root.traceId).toMatch(/^[0-9a-f]{32}$/)
    expect(Option.getOrThrow(child.parent).spanId).toBe(root.spanId)
  })

  it("follows a parent from another process whatever the draw", () => {
    const { made, tracer } = recording()
    const sampler = sampledTracer(tracer, 0, () => 0)
    const kept = Option.getOrThrow(spanOfTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"))
    const dropped = Option.getOrThrow(spanOfTraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00"))
    const job = (parent: Tracer.AnySpan) =>
      Effect.runSync(Effect.currentSpan.pipe(Effect.withSpan("job", { parent }), Effect.withTracer(sampler), Effect.orDie))
    expect(job(kept).sampled).toBe(true)
    expect(job(dropped).sampled).toBe(false)
    expect(job(dropped).traceId).toBe("4bf92f3577b34da6a3ce929d0e0e4736")
    expect(made).toEqual(["job"])
  })
})

describe("OTEL_TRACES_SAMPLER", () => {
  const ratio = (env: Record<string, string>) =>
    Effect.runSync(Effect.either(Effect.withConfigProvider(SamplingRatioConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))

  it("reads the specification's sampler names", () => {
    expect(ratio({})).toEqual(Either.right(1))
    expect(ratio({ OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.1" })).toEqual(Either.right(0.1))
    expect(ratio({ OTEL_TRACES_SAMPLER: "always_off" })).toEqual(Either.right(0))
    expect(Either.isLeft(ratio({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "2" }))).toBe(true)
    expect(Either.isLeft(ratio({ OTEL_TRACES_SAMPLER: "jaeger_remote" }))).toBe(true)
  })
})
