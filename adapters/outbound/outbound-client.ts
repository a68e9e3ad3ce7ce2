// The one HTTP client for user-supplied URLs: public addresses only (checked at connect time), no
// proxy, verified certificates, no redirects followed, one time limit over the whole exchange, a size cap.
import { lookup as dnsLookup } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import * as net from "node:net"
import { pipeline, Transform, type Writable } from "node:stream"
import * as tls from "node:tls"
import { Config, Context, Data, Effect, Layer } from "effect"
import {
  type AddressPolicy,
  DisallowedAddress,
  guardedLookup,
  ipLiteral,
  isAllowedAddress,
  type Resolve
} from "./address-policy.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export const USER_AGENT = "Reelwright/0.1"

/** Where one request dials; `lookup` is the guarded resolver the socket must use for names. */
export interface ConnectTarget {
  readonly secure: boolean
  readonly host: string
  readonly port: number
  readonly lookup: net.LookupFunction
}

/** Opens the (TLS) socket for one request. Injectable so tests can see what would be dialed. */
export type Connect = (target: ConnectTarget) => net.Socket

export const directConnect: Connect = ({ secure, host, lookup, port }) =>
  secure
    ? tls.connect({
        host,
        port,
        lookup,
        // Explicit, so NODE_TLS_REJECT_UNAUTHORIZED=0 cannot turn verification off; extra CAs come from NODE_EXTRA_CA_CERTS.
        rejectUnauthorized: true,
        ALPNProtocols: ["http/1.1"],
        ...(net.isIP(host) === 0 ? { servername: host } : {})
      })
    : net.connect({ host, port, lookup })

export interface OutboundSettings extends AddressPolicy {
  readonly resolve: Resolve
  readonly connect: Connect
}

export interface ResponseHead {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
}

export interface OutboundResponse extends ResponseHead {
  /** Bytes streamed into the sink; 0 when the body was discarded. */
  readonly bytes: number
}

export interface OutboundRequest {
  readonly method: "GET" | "POST"
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
  /** Covers connecting, TLS, the headers and the body. */
  readonly timeoutMs: number
  /** Cap on the body streamed into `onBody`'s sink (Content-Length is checked first). */
  readonly maxBytes: number
  /** Given the status and headers, where the body goes; null, or no `onBody`, discards it unread. */
  readonly onBody?: (head: ResponseHead) => Writable | null
  /**
   * Reuse connections to the same host and port (a sender of many small requests). A discarded body is
   * then read to its end, if small and quick, so that its connection can carry the next request.
   */
  readonly keepAlive?: boolean
  /** Aborting it ends the request at once, as a `Timeout`: for a caller that keeps the time limit on its own clock. */
  readonly signal?: AbortSignal
}

export class OutboundFailure extends Data.TaggedError("OutboundFailure")<{
  readonly reason: "InvalidUrl" | "Disallowed" | "Unreachable" | "Timeout" | "TooLarge"
  /** Names the host at most, never the URL's path or query (they may hold credentials). */
  readonly message: string
}> {}

export interface OutboundClientShape {
  readonly request: (url: string, request: OutboundRequest) => Effect.Effect<OutboundResponse, OutboundFailure>
}
export class OutboundClient extends Context.Tag("OutboundClient")<OutboundClient, OutboundClientShape>() {}

class BodyTooLarge extends Error {}

/** An idle pooled connection closes after this, before a receiver's own idle timeout (often 5 s) would race our next request. */
const IDLE_CONNECTION_MS = 4_000
/** A discarded body longer than this closes its connection rather than being read through. */
const MAX_DISCARDED_BYTES = 64 * 1024

type Dial = (secure: boolean, host: string, port: number) => net.Socket

/**
 * Keep-alive pools, one per scheme (keyed by host and port inside). Every new connection dials through
 * `dial`, so the address policy is checked as for an unpooled one; a pooled socket goes on to the address
 * checked when it was opened.
 */
const keepAliveAgents = (dial: Dial) => {
  const options = { keepAlive: true, timeout: IDLE_CONNECTION_MS }
  const secure = new https.Agent(options)
  secure.createConnection = ({ host, port }) => dial(true, String(host), Number(port))
  const plain = new http.Agent(options)
  plain.createConnection = ({ host, port }) => dial(false, String(host), Number(port))
  return { secure, plain }
}

/** Reads a discarded body to its end so the connection returns to its pool; a long or slow one closes it instead. */
const discardForReuse = (response: http.IncomingMessage, withinMs: number) => {
  if (Number(response.headers["content-length"]) > MAX_DISCARDED_BYTES) return response.destroy()
  let bytes = 0
  const deadline = setTimeout(() => response.destroy(), withinMs)
  response.on("data", (chunk: Buffer) => {
    bytes += chunk.length
    if (bytes > MAX_DISCARDED_BYTES) response.destroy()
  })
  response.once("close", () => clearTimeout(deadline))
}

const isTlsError = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException).code ?? ""
  return /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_/.test(code)
}

const describeFailure = (error: unknown, host: string, maxBytes: number): OutboundFailure => {
  if (error instanceof BodyTooLarge) {
    return new OutboundFailure({ reason: "TooLarge", message: `the body from ${host} is over ${maxBytes} bytes` })
  }
  if (error instanceof DisallowedAddress) return new OutboundFailure({ reason: "Disallowed", message: error.message })
  const detail = error instanceof Error ? error.message : String(error)
  return new OutboundFailure({
    reason: "Unreachable",
    message: isTlsError(error) ? `TLS with ${host} failed: ${detail}` : `could not reach ${host}: ${detail}`
  })
}

const parseTarget = (raw: string, policy: AddressPolicy): Effect.Effect<URL, OutboundFailure> => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return Effect.fail(new OutboundFailure({ reason: "InvalidUrl", message: "not a valid absolute URL" }))
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Effect.fail(
      new OutboundFailure({ reason: "InvalidUrl", message: `only http and https are supported, not ${url.protocol}` })
    )
  }
  // Node skips `lookup` for IP literals, so they are checked here, before any socket exists.
  const literal = ipLiteral(url.hostname)
  if (literal !== null && !isAllowedAddress(literal, policy)) {
    return Effect.fail(
      new OutboundFailure({ reason: "Disallowed", message: new DisallowedAddress(literal, literal).message })
    )
  }
  return Effect.succeed(url)
}

const exchange = (url: URL, request: OutboundRequest, dial: Dial, agents: ReturnType<typeof keepAliveAgents>) =>
  Effect.async<OutboundResponse, OutboundFailure>((resume) => {
    let settled = false
    // A timer of the socket's own clock, not Effect.timeout: that races a fiber per request, which costs
    // more than the request on a kept-alive connection.
    const deadline = setTimeout(() => {
      settle(Effect.fail(new OutboundFailure({ reason: "Timeout", message: `${url.host} did not answer completely within ${request.timeoutMs} ms` })))
      outgoing.destroy()
    }, request.timeoutMs)
    const aborted = () => {
      settle(Effect.fail(new OutboundFailure({ reason: "Timeout", message: `${url.host} did not answer in time` })))
      outgoing.destroy()
    }
    const settle = (outcome: Effect.Effect<OutboundResponse, OutboundFailure>) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      request.signal?.removeEventListener("abort", aborted)
      resume(outcome)
    }
    const fail = (error: unknown) => settle(Effect.fail(describeFailure(error, url.host, request.maxBytes)))
    const secure = url.protocol === "https:"
    const defaultPort = secure ? 443 : 80
    const port = url.port === "" ? defaultPort : Number(url.port)
    const host = ipLiteral(url.hostname) ?? url.hostname
    const body = request.body === undefined ? undefined : Buffer.from(request.body)
    const outgoing = (secure ? https : http).request({
      method: request.method,
      host,
      port,
      defaultPort,
      path: `${url.pathname}${url.search}`,
      headers: {
        "user-agent": USER_AGENT,
        ...request.headers,
        ...(body === undefined ? {} : { "content-length": String(body.length) })
      },
      // Without keep-alive no agent: the request dials through `connect` itself, so no pooled socket, no proxy.
      ...(request.keepAlive === true
        ? { agent: secure ? agents.secure : agents.plain }
        : { createConnection: () => dial(secure, host, port) })
    })
    outgoing.on("error", fail)
    outgoing.on("response", (response) => {
      const head: ResponseHead = { status: response.statusCode ?? 0, headers: response.headers }
      const sink = request.onBody?.(head) ?? null
      if (sink === null) {
        if (request.keepAlive === true) discardForReuse(response, request.timeoutMs)
        else response.destroy()
        return settle(Effect.succeed({ ...head, bytes: 0 }))
      }
      if (Number(response.headers["content-length"]) > request.maxBytes) {
        response.destroy()
        sink.destroy()
        return fail(new BodyTooLarge())
      }
      let bytes = 0
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, next) {
          bytes += chunk.length
          if (bytes > request.maxBytes) next(new BodyTooLarge())
          else next(null, chunk)
        }
      })
      pipeline(response, counter, sink, (error) => (error ? fail(error) : settle(Effect.succeed({ ...head, bytes }))))
    })
    request.signal?.addEventListener("abort", aborted)
    outgoing.end(body)
    if (request.signal?.aborted === true) aborted()
    return Effect.sync(() => {
      settled = true
      clearTimeout(deadline)
      request.signal?.removeEventListener("abort", aborted)
      outgoing.destroy()
    })
  })

export const makeOutboundClient = (settings: OutboundSettings): OutboundClientShape => {
  const lookup = guardedLookup(settings.resolve, settings)
  const dial: Dial = (secure, host, port) => settings.connect({ secure, host, port, lookup })
  const agents = keepAliveAgents(dial)
  return {
    request: (raw, request) =>
      parseTarget(raw, settings).pipe(
        Effect.flatMap((url) => exchange(url, request, dial, agents)),
        withSpan("OutboundClient.request", { captureStackTrace: false })
      )
  }
}

/** OUTBOUND_ALLOW_LOOPBACK=1 is the test-only switch that lets requests reach 127.0.0.0/8 and ::1. */
export const OutboundClientLive = Layer.effect(
  OutboundClient,
  Effect.map(Config.boolean("OUTBOUND_ALLOW_LOOPBACK").pipe(Config.withDefault(false)), (allowLoopback) =>
    makeOutboundClient({ allowLoopback, resolve: dnsLookup, connect: directConnect })
  )
)
