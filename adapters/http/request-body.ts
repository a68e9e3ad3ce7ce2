// Reading a request body without trusting it: every body is counted while it streams and refused the
// moment it passes its cap, a client that sends too slowly or stops sending is answered 408, and the
// multipart parser's failures (its exceptions included) are refusals rather than crashes. The platform's
// own readers buffer a chunked body without limit and hand forms to a parser that can throw inside a
// stream callback or wait forever for a closing boundary, so each route reads through `guardRequest`.
import { HttpServerRequest, Multipart, UrlParams } from "@effect/platform"
import { Data, Effect, Inspectable, Stream } from "effect"
import * as MP from "multipasta"
import { createWriteStream, type WriteStream } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import type { IncomingMessage } from "node:http"
import { tmpdir } from "node:os"
import { basename, join } from "node:path"
import type { RequestLimitSettings } from "./request-limits.ts"

/** Why a body was not read: answered in the shape of the route it was sent to (see refusal.ts). */
export class BodyRefused extends Data.TaggedError("BodyRefused")<{
  readonly status: 400 | 408 | 413
  readonly code: string
  readonly message: string
  readonly field: string
}> {}

const malformed = (message: string) => new BodyRefused({ status: 400, code: "invalid_input", message: `body: ${message}`, field: "body" })
const tooLarge = (message: string) => new BodyRefused({ status: 413, code: "payload_too_large", message, field: "body" })
const tooSlow = (message: string) => new BodyRefused({ status: 408, code: "request_timeout", message: `body: ${message}`, field: "body" })

/** JSON nested deeper than this is refused: no request needs it, and walking it costs stack. */
export const MAX_JSON_DEPTH = 64

const tooDeep = (value: unknown): boolean => {
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!
    if (node === null || typeof node !== "object") continue
    if (depth > MAX_JSON_DEPTH) return true
    for (const child of Object.values(node)) stack.push([child, depth + 1])
  }
  return false
}

export const parseJsonBody = (text: string): Effect.Effect<unknown, BodyRefused> =>
  Effect.suspend(() => {
    if (text === "") return Effect.succeed(null)
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return Effect.fail(malformed("the request body is not valid JSON"))
    }
    return tooDeep(value) ? Effect.fail(malformed(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`)) : Effect.succeed(value)
  })

interface BodySink {
  /** Takes a chunk; answers a refusal to stop reading. */
  readonly chunk: (chunk: Buffer) => BodyRefused | undefined
  /** The body ended; answers a refusal when it ended too early. */
  readonly end: () => BodyRefused | undefined
}

const CHECK_INTERVAL_MS = 1000

/**
 * Feeds the body to `sink` as it arrives, at most `maxBytes`, and watches its pace. On a refusal it
 * stops reading (the response is sent with `Connection: close`, and Node discards the rest).
 */
const pump = (
  source: IncomingMessage,
  limits: RequestLimitSettings,
  maxBytes: number,
  sink: BodySink
): Effect.Effect<void, BodyRefused> =>
  Effect.async<void, BodyRefused>((resume) => {
    const started = Date.now()
    let lastArrival = started
    let bytes = 0
    let settled = false
    const settle = (refusal: BodyRefused | undefined) => {
      if (settled) return
      settled = true
      clearInterval(timer)
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onAbort)
      source.off("close", onAbort)
      if (refusal !== undefined) source.pause()
      resume(refusal === undefined ? Effect.void : Effect.fail(refusal))
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      lastArrival = Date.now()
      if (bytes > maxBytes) return settle(tooLarge(`The body is over the limit of ${maxBytes} bytes.`))
      const refusal = sink.chunk(chunk)
      if (refusal !== undefined) settle(refusal)
    }
    const onEnd = () => settle(sink.end())
    const onAbort = () => settle(malformed("the connection closed before the body ended"))
    const timer = setInterval(() => {
      const now = Date.now()
      const idle = limits.bodyIdleSeconds * 1000
      if (now - lastArrival > idle) return settle(tooSlow(`nothing arrived for ${limits.bodyIdleSeconds} s.`))
      const elapsed = now - started
      if (elapsed > idle && bytes / (elapsed / 1000) < limits.bodyMinBytesPerSecond) {
        settle(tooSlow(`sent slower than ${limits.bodyMinBytesPerSecond} bytes a second.`))
      }
    }, CHECK_INTERVAL_MS)
    timer.unref()
    if (source.readableEnded) return settle(sink.end())
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("error", onAbort)
    source.once("close", onAbort)
    return Effect.sync(() => settle(undefined))
  })

/** The whole body in memory, for the JSON and form-encoded routes. */
/** A JSON body whole, read under its cap and pace. */
export const readAll = (source: IncomingMessage, limits: RequestLimitSettings): Effect.Effect<Buffer, BodyRefused> =>
  Effect.suspend(() => {
    const chunks: Array<Buffer> = []
    return pump(source, limits, limits.jsonBytes, {
      chunk: (chunk) => {
        chunks.push(chunk)
        return undefined
      },
      end: () => undefined
    }).pipe(Effect.map(() => Buffer.concat(chunks)))
  })

/**
 * A part's name and file name from its Content-Disposition. The parser's own reading drops every
 * parameter when one holds a character above U+00FF (a file named `视频.png`), so it is read again here.
 */
const dispositionOf = (info: MP.PartInfo): { readonly name: string; readonly filename: string | undefined } => {
  const header = info.headers["content-disposition"]
  const text = typeof header === "string" ? header : ""
  const param = (key: string) => new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"`, "i").exec(text)?.[1]?.replace(/\\(.)/g, "$1")
  return {
    name: info.name !== "" ? info.name : param("name") ?? "",
    filename: info.filename ?? param("filename")
  }
}

const REASONS: Readonly<Record<MP.MultipartError["_tag"], string>> = {
  InvalidBoundary: "the multipart Content-Type has no boundary",
  BadHeaders: "a part's headers could not be read",
  InvalidDisposition: "a part has no name in its Content-Disposition",
  ReachedLimit: "a part is over its limit",
  EndNotReached: "the form ended before its closing boundary"
}

/** The form's total size is capped by `pump`, so the parser reports parts and fields only. */
const formRefusal = (error: MP.MultipartError, limits: RequestLimitSettings): BodyRefused => {
  if (error._tag !== "ReachedLimit") return malformed(REASONS[error._tag])
  return error.limit === "MaxParts"
    ? malformed(`the form has more than ${limits.formParts} parts`)
    : tooLarge("A text field of the form is over 1 MB.")
}

interface FilePart {
  readonly key: string
  readonly name: string
  readonly contentType: string
  readonly path: string
  readonly out: WriteStream
  readonly closed: Promise<void>
}

/** A file of the form as the platform's schemas (`Multipart.SingleFileSchema`) recognise one. */
class PersistedFile extends Inspectable.Class implements Multipart.PersistedFile {
  readonly [Multipart.TypeId]: Multipart.TypeId = Multipart.TypeId
  readonly _tag = "PersistedFile"
  constructor(readonly key: string, readonly name: string, readonly contentType: string, readonly path: string) {
    super()
  }
  toJSON(): unknown {
    return { _tag: this._tag, key: this.key, name: this.name, contentType: this.contentType, path: this.path }
  }
}

/**
 * A multipart form with its files written to a temporary folder that lives as long as the request.
 * Writing waits for the disk (the body is paused meanwhile), so a fast client never fills memory.
 */
const readForm = (source: IncomingMessage, limits: RequestLimitSettings) =>
  Effect.gen(function*() {
    const dir = yield* Effect.acquireRelease(
      Effect.promise(() => mkdtemp(join(tmpdir(), "reelwright-form-"))),
      (path) => Effect.promise(() => rm(path, { recursive: true, force: true }))
    )
    const fields: Record<string, string | Array<string>> = {}
    const files: Array<FilePart> = []
    let parseError: MP.MultipartError | undefined
    let done = false
    const parser = MP.make({
      headers: source.headers as Record<string, string>,
      maxParts: limits.formParts,
      isFile: (info) => dispositionOf(info).filename !== undefined || MP.defaultIsFile(info),
      onField: (info, value) => {
        const { name } = dispositionOf(info)
        const text = MP.decodeField(info, value)
        const previous = fields[name]
        fields[name] = previous === undefined ? text : [...(Array.isArray(previous) ? previous : [previous]), text]
      },
      onFile: (info) => {
        const { name, filename } = dispositionOf(info)
        const path = join(dir, `${files.length}-${basename(filename ?? "file").slice(-128)}`)
        const out = createWriteStream(path)
        const closed = new Promise<void>((resolve, reject) => {
          out.once("close", resolve)
          out.once("error", reject)
        })
        files.push({ key: name, name: filename ?? "", contentType: info.contentType, path, out, closed })
        return (chunk) => {
          if (chunk === null) return void out.end()
          if (!out.write(chunk)) {
            source.pause()
            // An ended file never drains: it closes instead.
            const resume = () => {
              out.off("drain", resume)
              out.off("close", resume)
              source.resume()
            }
            out.once("drain", resume)
            out.once("close", resume)
          }
        }
      },
      onError: (error) => {
        parseError ??= error
      },
      onDone: () => {
        done = true
      }
    })
    const refused = () => parseError === undefined ? undefined : formRefusal(parseError, limits)
    const outcome = yield* Effect.either(Effect.suspend(() =>
      refused() === undefined
        ? pump(source, limits, limits.formBytes, {
          chunk: (chunk) => {
            try {
              parser.write(chunk)
            } catch {
              // multipasta decodes `filename*` with decodeURIComponent, which throws on bad escapes.
              return malformed("a part's header could not be decoded (is its filename* percent-encoded UTF-8?)")
            }
            return refused()
          },
          end: () => {
            parser.end()
            return refused() ?? (done ? undefined : malformed(REASONS.EndNotReached))
          }
        })
        : Effect.fail(refused()!)
    ))
    // Every file is closed before the request's folder is removed, whatever the outcome.
    for (const file of files) file.out.end()
    const closed = yield* Effect.promise(() => Promise.allSettled(files.map((f) => f.closed)))
    if (outcome._tag === "Left") return yield* Effect.die(outcome.left)
    const failedWrite = closed.find((c) => c.status === "rejected")
    if (failedWrite !== undefined) return yield* Effect.die(failedWrite.reason)
    const persisted: Record<string, string | Array<string> | Array<Multipart.PersistedFile>> = { ...fields }
    for (const file of files) {
      if (file.key === "") continue
      const previous = persisted[file.key]
      persisted[file.key] = [...(Array.isArray(previous) ? previous as Array<Multipart.PersistedFile> : []), new PersistedFile(file.key, file.name, file.contentType, file.path)]
    }
    return persisted as Multipart.Persisted
  })

/** Evaluates `make` once, on first use: the body can be read only once. */
const once = <A, E>(make: () => Effect.Effect<A, E>): Effect.Effect<A, E> => {
  let cached: Effect.Effect<A, E> | undefined
  return Effect.suspend(() => (cached ??= Effect.runSync(Effect.cached(make()))))
}

/**
 * The request with every body reader replaced by a guarded one. Readers die with BodyRefused, as the
 * platform's routes turn any body error into a defect; refusal.ts answers it in the route's shape.
 */
export const guardRequest = (request: HttpServerRequest.HttpServerRequest, limits: RequestLimitSettings): HttpServerRequest.HttpServerRequest => {
  const source = request.source as IncomingMessage
  const body = once(() => Effect.orDie(readAll(source, limits)))
  const text = Effect.map(body, (buffer) => buffer.toString("utf8"))
  const guarded: Partial<HttpServerRequest.HttpServerRequest> = {
    text,
    json: Effect.flatMap(text, (t) => Effect.orDie(parseJsonBody(t))),
    urlParamsBody: Effect.map(text, (t) => UrlParams.fromInput(new URLSearchParams(t))),
    arrayBuffer: Effect.map(body, (buffer) => new Uint8Array(buffer).buffer),
    stream: Stream.fromEffect(body),
    multipart: readForm(source, limits),
    multipartStream: Stream.dieMessage("multipart streams are not read by this service: use `multipart`")
  }
  return Object.create(
    request,
    Object.fromEntries(Object.entries(guarded).map(([key, value]) => [key, { value }]))
  ) as HttpServerRequest.HttpServerRequest
}
