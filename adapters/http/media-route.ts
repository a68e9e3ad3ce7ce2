// GET /media/:token/:name: stored files behind unguessable links. No header needed (browsers,
// <video> tags), Range supported, and the link stops working when the file is deleted (404) or expires
// (410, checked on every read against the file's expiry).
// When the BlobStore can sign URLs (S3), a GET is redirected to the store instead of streamed through.
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Option } from "effect"
import { fileAvailability } from "../../domain/file-retention.ts"
import { BlobStore } from "../../domain/ports/blob-store.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { parseByteRange } from "./byte-range.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const notFound = HttpServerResponse.unsafeJson(
  { error: { code: "not_found", message: "This media link does not exist, or its file was deleted." } },
  { status: 404 }
)

/** An expired file is known to have existed: 410 tells a client that asking again will not help. */
const expired = HttpServerResponse.unsafeJson(
  {
    error: {
      code: "expired",
      message: "This file expired: it passed the workspace plan's file retention and is no longer stored."
    }
  },
  { status: 410 }
)

const SIGNED_URL_SECONDS = 60 * 60

/** An hour, but never past the file's own expiry. */
const signedUrlSeconds = (expiresAt: number | null, now: number): number =>
  expiresAt === null ? SIGNED_URL_SECONDS : Math.max(1, Math.min(SIGNED_URL_SECONDS, Math.ceil((expiresAt - now) / 1000)))

export const serveMedia = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { token } = yield* HttpRouter.params
  const found = yield* (yield* FileStore).getByToken(token ?? "")
  const now = yield* Clock.currentTimeMillis
  if (Option.isNone(found)) return notFound
  const file = found.value
  switch (fileAvailability(file, now)) {
    case "deleted":
      return notFound
    case "expired":
      return expired
  }
  const blobs = yield* BlobStore
  // A store that can sign serves the bytes itself; this stable link just hands out a fresh short-lived
  // URL each time. Only for GET: a presigned URL is valid for the method it was signed for, so HEAD is
  // answered here.
  if (request.method === "GET") {
    const signed = yield* blobs.signedUrl(file.blobKey, {
      expiresInSeconds: signedUrlSeconds(file.expiresAt, now),
      fileName: file.name,
      contentType: file.contentType
    })
    if (Option.isSome(signed)) {
      return HttpServerResponse.redirect(signed.value, { status: 302, headers: { "cache-control": "private, no-store" } })
    }
  }
  const size = yield* blobs.size(file.blobKey)
  const headers = {
    "accept-ranges": "bytes",
    "cache-control": "private, max-age=3600",
    "content-disposition": `inline; filename="${file.name}"`
  }
  const range = parseByteRange(request.headers["range"], size)
  if (range === "invalid") {
    return HttpServerResponse.empty({ status: 416, headers: { ...headers, "content-range": `bytes */${size}` } })
  }
  const part = range === null ? { start: 0, end: size - 1 } : range
  const partHeaders = {
    ...headers,
    ...(range === null ? {} : { "content-range": `bytes ${part.start}-${part.end}/${size}` })
  }
  const status = range === null ? 200 : 206
  const length = part.end - part.start + 1
  if (request.method === "HEAD") {
    return HttpServerResponse.empty({
      status,
      headers: { ...partHeaders, "content-length": String(length), "content-type": file.contentType }
    })
  }
  return HttpServerResponse.stream(blobs.read(file.blobKey, range ?? undefined), {
    status,
    headers: partHeaders,
    contentType: file.contentType,
    contentLength: length
  })
}).pipe(withSpan("serveMedia"))

export const MediaRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const handler = Effect.provide(serveMedia, yield* Effect.context<BlobStore | FileStore>())
    yield* router.get("/media/:token/:name", handler)
    yield* router.head("/media/:token/:name", handler)
  })
)
