// The service's spans: Effect's while tracing is on; none at all while it is off, where Effect's own
// would still put a no-op span in the context (a copy of it) to record nothing.
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
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
