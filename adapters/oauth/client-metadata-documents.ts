// Client ID Metadata Documents fetched through the outbound client (public addresses only, no redirects
// followed), capped in size and time, and cached in this process: each API process fetches a document
// at most once per cache lifetime, and a restart starts with an empty cache.
import { Writable } from "node:stream"
import { Clock, Config, Effect, Layer } from "effect"
import { clientIdUrlProblem } from "../../domain/oauth.ts"
import { ClientMetadataDocuments, type ClientMetadataDocumentsShape, ClientMetadataUnavailable } from "../../domain/ports/client-metadata-documents.ts"
import { OutboundClient, type OutboundClientShape, type OutboundFailure } from "../outbound/outbound-client.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** The draft's recommended cap: a client's metadata is a few hundred bytes. */
export const MAX_DOCUMENT_BYTES = 5 * 1024
/** A person waits on the authorization page meanwhile. */
export const FETCH_TIMEOUT_MS = 5_000
/**
 * Cache-Control max-age is honoured within these bounds. A document without one (or marked no-cache or
 * no-store) is kept the minimum: the floor bounds how often one URL can make this server fetch it.
 */
export const MIN_CACHE_MS = 5 * 60 * 1000
export const MAX_CACHE_MS = 24 * 60 * 60 * 1000
/** Entries beyond this evict the oldest, so the cache's memory stays bounded. */
const MAX_CACHED = 1000

export interface ClientMetadataSettings {
  readonly client: OutboundClientShape
  /** The outbound client's test switch (OUTBOUND_ALLOW_LOOPBACK=1): then http on loopback is allowed too. */
  readonly loopbackHttp: boolean
}

/** How long a document may be reused, from its Cache-Control header. */
export const cacheLifetimeMs = (cacheControl: string | undefined): number => {
  const maxAge = /(?:^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(?:,|$)/i.exec(cacheControl ?? "")
  const asked = maxAge === null ? 0 : Number(maxAge[1]) * 1000
  return Math.min(MAX_CACHE_MS, Math.max(MIN_CACHE_MS, asked))
}

const unavailable = (reason: string) => new ClientMetadataUnavailable({ reason })

const describeFailure = (failure: OutboundFailure): ClientMetadataUnavailable => {
  switch (failure.reason) {
    case "TooLarge":
      return unavailable(`the document is over ${MAX_DOCUMENT_BYTES} bytes, the limit`)
    case "Timeout":
      return unavailable(`its server did not answer within ${FETCH_TIMEOUT_MS / 1000} seconds`)
    case "Disallowed":
      return unavailable(`it leads to an address this server may not fetch (${failure.message})`)
    case "InvalidUrl":
    case "Unreachable":
      return unavailable(failure.message)
  }
}

const collector = (chunks: Array<Buffer>) =>
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk)
      done()
    }
  })

const parseJson = (text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

export const makeClientMetadataDocuments = (settings: ClientMetadataSettings): ClientMetadataDocumentsShape => {
  // Insertion order is age order: the first key is the one to evict.
  const cache = new Map<string, { readonly document: unknown; readonly until: number }>()

  const download = (clientId: string) =>
    Effect.gen(function*() {
      const chunks: Array<Buffer> = []
      const response = yield* settings.client.request(clientId, {
        method: "GET",
        headers: { accept: "application/json" },
        timeoutMs: FETCH_TIMEOUT_MS,
        maxBytes: MAX_DOCUMENT_BYTES,
        onBody: (head) => (head.status === 200 ? collector(chunks) : null)
      }).pipe(Effect.mapError(describeFailure))
      if (response.status >= 300 && response.status < 400) {
        return yield* unavailable(`it answered HTTP ${response.status}, a redirect; the document must be served at the client ID URL itself`)
      }
      if (response.status !== 200) return yield* unavailable(`it answered HTTP ${response.status} instead of the document`)
      const parsed = parseJson(Buffer.concat(chunks).toString("utf8"))
      if (!parsed.ok) return yield* unavailable("the document is not valid JSON")
      return { document: parsed.value, lifetimeMs: cacheLifetimeMs(response.headers["cache-control"]) }
    })

  return {
    fetch: (clientId) =>
      Effect.gen(function*() {
        const problem = clientIdUrlProblem(clientId, { loopbackHttp: settings.loopbackHttp })
        if (problem !== null) return yield* unavailable(problem)
        const now = yield* Clock.currentTimeMillis
        const cached = cache.get(clientId)
        if (cached !== undefined && cached.until > now) return cached.document
        const { document, lifetimeMs } = yield* download(clientId)
        cache.delete(clientId)
        if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!)
        cache.set(clientId, { document, until: (yield* Clock.currentTimeMillis) + lifetimeMs })
        return document
      }).pipe(withSpan("ClientMetadataDocuments.fetch")),
    forget: (clientId) => Effect.sync(() => void cache.delete(clientId))
  }
}

export const ClientMetadataDocumentsLive = Layer.effect(
  ClientMetadataDocuments,
  Effect.gen(function*() {
    const client = yield* OutboundClient
    // The same switch OutboundClientLive reads: loopback http only where loopback may be reached at all.
    const loopbackHttp = yield* Config.boolean("OUTBOUND_ALLOW_LOOPBACK").pipe(Config.withDefault(false))
    return ClientMetadataDocuments.of(makeClientMetadataDocuments({ client, loopbackHttp }))
  })
)
