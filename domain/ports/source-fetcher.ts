import { Context, type Effect } from "effect"
import type { WorkFailed } from "../errors.ts"

/**
 * Downloads a user-supplied URL through the outbound guard: public addresses only (checked at
 * connect time), no redirects followed without re-checking, size and time capped.
 */
export interface SourceFetcherShape {
  readonly download: (
    url: string,
    destination: string,
    limits: { readonly maxBytes: number; readonly timeoutMs: number }
  ) => Effect.Effect<{ readonly bytes: number; readonly contentType: string | null }, WorkFailed>
}
export class SourceFetcher extends Context.Tag("SourceFetcher")<SourceFetcher, SourceFetcherShape>() {}
