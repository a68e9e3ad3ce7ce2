// A source uploaded with a create is checked while its bytes are at hand, before anything is
// recorded or charged: the same probe and limits its work applies, refused as a 400 on `file`.
import { Effect } from "effect"
import { InvalidInput } from "../../../domain/errors.ts"
import { MediaEngine, type ProbeResult } from "../../../domain/ports/media-engine.ts"
import type { Workspace } from "../../../domain/ports/workspace-store.ts"
import type { SourceCheck } from "../../../domain/rules.ts"
import { storeFile } from "./store-file.ts"
import { withSpan } from "../../kernel/spans.ts"

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
  }).pipe(withSpan("requireSource"))

/** Where a create's source comes from: a URL the job fetches, a file uploaded with the request, or a file the service stored already. */
export type WorkSource =
  | { readonly _tag: "Url"; readonly url: string }
  | { readonly _tag: "Upload"; readonly path: string; readonly name: string; readonly contentType: string }
  | { readonly _tag: "Stored"; readonly fileId: string }

/** The source as the record keeps it: a URL as it is; an upload checked (a 400 on `file`) and stored; a stored file as it is. */
export const recordedSource = (workspace: Pick<Workspace, "id" | "plan">, source: WorkSource, check: (facts: ProbeResult) => SourceCheck) =>
  Effect.gen(function*() {
    switch (source._tag) {
      case "Url":
        return { url: source.url }
      case "Stored":
        return { fileId: source.fileId }
      case "Upload":
        yield* requireSource(source.path, check)
        return { fileId: (yield* storeFile(workspace, source)).id }
    }
  })
