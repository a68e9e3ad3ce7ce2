// A source uploaded with a create is checked while its bytes are at hand, before anything is
// recorded or charged: the same probe and limits its work applies, refused as a 400 on `file`.
import { Effect } from "effect"
import { InvalidInput } from "../../../domain/errors.ts"
import { MediaEngine, type ProbeResult } from "../../../domain/ports/media-engine.ts"
import type { SourceCheck } from "../../../domain/rules.ts"

export const requireSource = (path: string, check: (facts: ProbeResult) => SourceCheck) =>
  Effect.gen(function*() {
    const facts = yield* (yield* MediaEngine).probe(path).pipe(
      Effect.mapError((e) => new InvalidInput({ field: "file", message: e.message }))
    )
    const verdict = check(facts)
    if (!verdict.ok) return yield* new InvalidInput({ field: "file", message: verdict.reason })
  }).pipe(Effect.withSpan("requireSource"))
