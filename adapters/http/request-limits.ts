// What one request and one connection may cost an API process: body sizes, how slowly a client may
// send, how long it may take over its headers, and how many connections are open at once. Set from the
// environment in roles.ts; tests make them small to show each one holds.
import { Context, Layer } from "effect"
import { MAX_SOURCE_BYTES } from "../../domain/rules.ts"

export interface RequestLimitSettings {
  /** A JSON (or form-encoded) body, counted while it streams. */
  readonly jsonBytes: number
  /** A multipart form, all parts together, counted while it streams: a file at the limit and its fields. */
  readonly formBytes: number
  /** Parts in one multipart form; the largest upload form (a caption video's) has nine. */
  readonly formParts: number
  /** The request line and headers must have arrived within this long. */
  readonly headersSeconds: number
  /** A body that sends nothing for this long is answered 408. */
  readonly bodyIdleSeconds: number
  /** After its first `bodyIdleSeconds`, a body must keep this average rate or it is answered 408. */
  readonly bodyMinBytesPerSecond: number
  /** Open connections per process; more are closed as they arrive. */
  readonly maxConnections: number
}

/** Room for the multipart envelope and text fields around a file at the limit. */
const FORM_OVERHEAD_BYTES = 1024 * 1024

export const DEFAULT_REQUEST_LIMITS: RequestLimitSettings = {
  jsonBytes: 1024 * 1024,
  formBytes: MAX_SOURCE_BYTES + FORM_OVERHEAD_BYTES,
  formParts: 16,
  headersSeconds: 10,
  bodyIdleSeconds: 10,
  bodyMinBytesPerSecond: 1024,
  maxConnections: 1024
}

export class RequestLimits extends Context.Tag("http/RequestLimits")<RequestLimits, RequestLimitSettings>() {
  static readonly layer = (settings: RequestLimitSettings) => Layer.succeed(RequestLimits, settings)
}
