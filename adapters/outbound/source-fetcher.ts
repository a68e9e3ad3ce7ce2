// Downloads a user's media URL straight to disk through the outbound client, re-checking every redirect.
import type { WriteStream } from "node:fs"
import { open, rm } from "node:fs/promises"
import type { Writable } from "node:stream"
import { Duration, Effect, Exit, Layer } from "effect"
import { WorkFailed } from "../../domain/errors.ts"
import { SourceFetcher } from "../../domain/ports/source-fetcher.ts"
import { OutboundClient, type OutboundClientShape, type OutboundFailure, type ResponseHead } from "./outbound-client.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const MAX_REDIRECTS = 5

interface Limits {
  readonly maxBytes: number
  readonly timeoutMs: number
}

const isSuccess = (status: number): boolean => status >= 200 && status < 300
const isRedirect = (status: number): boolean => status >= 300 && status < 400
const isPage = (head: ResponseHead): boolean =>
  /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(head.headers["content-type"] ?? "")

const resolveLocation = (location: string, base: string): string | null => {
  try {
    return new URL(location, base).href
  } catch {
    return null
  }
}

const describeSize = (bytes: number): string =>
  bytes >= 1_000_000 ? `${Number((bytes / 1_000_000).toFixed(1))} MB` : `${bytes} bytes`

const tookTooLong = (url: string, timeoutMs: number): WorkFailed =>
  new WorkFailed({
    message: `Downloading ${url} took longer than ${Number((timeoutMs / 1000).toFixed(1))} seconds; use a faster host or a smaller file.`
  })

const toWorkFailed = (failure: OutboundFailure, url: string, limits: Limits): WorkFailed => {
  switch (failure.reason) {
    case "TooLarge":
      return new WorkFailed({ message: `The file at ${url} is over ${describeSize(limits.maxBytes)}, the limit.` })
    case "Timeout":
      return tookTooLong(url, limits.timeoutMs)
    case "Disallowed":
      return new WorkFailed({
        message: `${url} leads to an address the service may not fetch (${failure.message}); use a public URL.`
      })
    case "InvalidUrl":
    case "Unreachable":
      return new WorkFailed({ message: `Could not download ${url}: ${failure.message}.` })
  }
}

interface Destination {
  /** The file as a stream; made once, for the media answer only. */
  readonly sink: () => Writable
  readonly close: (failed: boolean) => Effect.Effect<void>
}

/** Opened before the first request, so a bad path is a defect, not a download error. */
const openDestination = (path: string): Effect.Effect<Destination> =>
  Effect.map(
    Effect.promise(() => open(path, "w")),
    (handle) => {
      let stream: WriteStream | null = null
      return {
        sink: () => (stream = handle.createWriteStream({ start: 0 })),
        close: (failed) =>
          Effect.promise(async () => {
            // Once made, the stream owns the handle: wait until it lets go, so nothing writes after the removal.
            const made = stream
            if (made !== null && !made.closed) {
              made.destroy()
              await new Promise<void>((resolve) => made.once("close", () => resolve()))
            }
            await handle.close()
            // A failed or interrupted download leaves no partial file behind.
            if (failed) await rm(path, { force: true })
          })
      }
    }
  )

const fetchInto = (client: OutboundClientShape, url: string, file: Destination, limits: Limits) => {
  const hop = (
    current: string,
    redirects: number
  ): Effect.Effect<{ readonly bytes: number; readonly contentType: string | null }, WorkFailed> =>
    Effect.gen(function* () {
      const response = yield* client
        .request(current, {
          method: "GET",
          headers: { accept: "*/*" },
          timeoutMs: limits.timeoutMs,
          maxBytes: limits.maxBytes,
          // Only the final media answer is written; redirects, errors and pages are dropped unread.
          onBody: (head) =>
            isSuccess(head.status) && !isPage(head) ? file.sink() : null
        })
        .pipe(Effect.mapError((failure) => toWorkFailed(failure, url, limits)))
      if (isRedirect(response.status)) {
        const location = response.headers.location
        if (location === undefined) {
          return yield* new WorkFailed({ message: `${url} answered ${response.status} without saying where to go.` })
        }
        if (redirects >= MAX_REDIRECTS) {
          return yield* new WorkFailed({ message: `${url} redirects more than ${MAX_REDIRECTS} times.` })
        }
        const next = resolveLocation(location, current)
        if (next === null) {
          return yield* new WorkFailed({ message: `${url} redirects to an invalid address.` })
        }
        return yield* hop(next, redirects + 1)
      }
      if (!isSuccess(response.status)) {
        return yield* new WorkFailed({
          message: `Could not download ${url}: the server answered HTTP ${response.status}.`
        })
      }
      if (isPage(response)) {
        return yield* new WorkFailed({
          message: `${url} is a web page (text/html): the url must point at the media file itself, not a page.`
        })
      }
      return { bytes: response.bytes, contentType: response.headers["content-type"] ?? null }
    })
  return hop(url, 0)
}

export const SourceFetcherLive = Layer.effect(
  SourceFetcher,
  Effect.map(OutboundClient, (client) =>
    SourceFetcher.of({
      download: (url, destination, limits) =>
        Effect.acquireUseRelease(
          openDestination(destination),
          (file) => fetchInto(client, url, file, limits),
          (file, exit) => file.close(Exit.isFailure(exit))
        ).pipe(
          Effect.timeoutFail({
            duration: Duration.millis(limits.timeoutMs),
            onTimeout: () => tookTooLong(url, limits.timeoutMs)
          }),
          withSpan("SourceFetcher.download")
        )
    })
  )
)
