// The service's spans: Effect's where they record; none at all while tracing is off or inside a trace the
// sampler dropped, where Effect's own would still put a span in the context (a copy of it) to record nothing.
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { sampledTracer } from "../../adapters/telemetry/trace-sampler.ts"
import { withParentSpan, withSpan } from "../../src/kernel/spans.ts"

/** The name of the span the effect runs in, if any. */
const spanHere = Effect.option(Effect.currentSpan).pipe(Effect.map(Option.map((span) => span.name)))

describe("withSpan", () => {
  it("runs the effect in a span of that name while tracing is on, under the span it was in", () => {
    const [inner, outer] = Effect.runSync(
      Effect.all([spanHere.pipe(withSpan("inner")), spanHere]).pipe(withSpan("outer"))
    )
    expect(inner).toEqual(Option.some("inner"))
    expect(outer).toEqual(Option.some("outer"))
  })

  it("runs the effect as it is while tracing is off: no span, and its context unchanged", () => {
    const [span, sameContext] = Effect.runSync(
      Effect.gen(function*() {
        const before = yield* Effect.context<never>()
        const inside = yield* Effect.context<never>().pipe(withSpan("skipped"))
        return [yield* spanHere.pipe(withSpan("skipped")), inside === before] as const
      }).pipe(Effect.withTracerEnabled(false))
    )
    expect(span).toEqual(Option.none())
    expect(sameContext).toBe(true)
  })

  it("opens no span inside a trace the sampler dropped, but does for a span with a parent of its own or a new root", () => {
    const native = Effect.runSync(Effect.tracer)
    const dropping = sampledTracer(native, 0)
    const keeping = sampledTracer(native, 1)
    const [inside, ownParent, newRoot] = Effect.runSync(
      Effect.gen(function*() {
        const request = yield* Effect.currentSpan
        return [
          yield* spanHere.pipe(withSpan("skipped")),
          yield* spanHere.pipe(withSpan("job", { parent: request })),
          yield* spanHere.pipe(withSpan("root", { root: true }), Effect.withTracer(keeping))
        ] as const
      }).pipe(Effect.withSpan("request"), Effect.withTracer(dropping), Effect.orDie)
    )
    expect(inside).toEqual(Option.some("request"))
    expect(ownParent).toEqual(Option.some("job"))
    expect(newRoot).toEqual(Option.some("root"))
    // A kept trace's spans are all opened.
    const kept = Effect.runSync(spanHere.pipe(withSpan("child"), Effect.withSpan("request"), Effect.withTracer(keeping)))
    expect(kept).toEqual(Option.some("child"))
  })

  it("keeps the effect's failure either way", () => {
    const failing = Effect.fail("no").pipe(withSpan("failing"))
    expect(Effect.runSync(Effect.flip(failing))).toBe("no")
    expect(Effect.runSync(Effect.flip(failing).pipe(Effect.withTracerEnabled(false)))).toBe("no")
  })
})

describe("withParentSpan", () => {
  it("puts a span made with useSpan in the context while tracing is on, and nothing while it is off", () => {
    const under = (enabled: boolean) =>
      Effect.runSync(Effect.useSpan("request", (span) => spanHere.pipe(withParentSpan(span))).pipe(Effect.withTracerEnabled(enabled)))
    expect(under(true)).toEqual(Option.some("request"))
    expect(under(false)).toEqual(Option.none())
  })
})
