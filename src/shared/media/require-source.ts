// A source uploaded with a create is checked while its bytes are at hand, before anything is
// recorded or charged: the same probe and limits its work applies, refused as a 400 on `file`.
import { Effect } from "effect"
import { InvalidInput } from "../../../domain/errors.ts"
import { MediaEngine, type ProbeResult } from "../../../domain/ports/media-engine.ts"
import type { SourceCheck } from "../../../domain/rules.ts"

/** An uploaded file's probe; a file the probe cannot read (or refuses to decode) is a 400 on `field`. */
export const probeUpload = (path: string, field: string) =>
  Effect.flatMap(MediaEngine, (media) => media.probe(path)).pipe(
    Effect.mapError((e) => new InvalidInput({ field, message: e.message }))
  )

export const requireSource = (path: string, check: (facts: ProbeResult) => SourceCheck) =>
  Effect.gen(function*() {
    const facts = yield* probeUpload(path, "file")
    const verdict = check(facts)
    if (!verdict.ok) return yield* new InvalidInput({ field: "file", message: verdict.reason })
  }).pipe(Effect.withSpan("requireSource"))
