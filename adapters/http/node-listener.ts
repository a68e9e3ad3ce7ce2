// The Node HTTP server under the API, with the limits that hold before any request exists: headers
// must arrive within a deadline, open connections are capped, and what Node refuses on its own (headers
// too large, a malformed request line, a deadline passed) is answered with the JSON error body instead
// of Node's empty one.
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import { LaneSlot } from "./lanes.ts"
import { rawRefusal } from "./refusal.ts"
import type { RequestLimitSettings } from "./request-limits.ts"

/** How often Node looks for connections past their header deadline. */
const CHECK_INTERVAL_MS = 1000

const clientRefusal = (code: string | undefined): string => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return rawRefusal(431, "Request Header Fields Too Large", {
        status: 431,
        code: "headers_too_large",
        message: "The request's headers are over 16 KB."
      })
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return rawRefusal(408, "Request Timeout", { status: 408, code: "request_timeout", message: "The request's headers took too long." })
    default:
      return rawRefusal(400, "Bad Request", { status: 400, code: "invalid_request", message: "The request is not valid HTTP/1.1." })
  }
}

/**
 * The server, with the lanes (lanes.ts) in front of the platform's handler: a request a lane takes never
 * reaches the platform unless the lane hands it on. The platform adds its handler itself, so the lanes
 * sit where Node delivers the event.
 */
export const makeServer = (limits: RequestLimitSettings, slot: LaneSlot["Type"]): Server => {
  const server = createServer({
    headersTimeout: limits.headersSeconds * 1000,
    // Bodies are timed by their pace (request-body.ts), since an upload at the size limit may take long.
    requestTimeout: 0,
    connectionsCheckingInterval: CHECK_INTERVAL_MS
  })
  server.maxConnections = limits.maxConnections
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A socket with a response under way, or already gone, has no room for another answer.
    if (error.code === "ECONNRESET" || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
      socket.destroy()
      return
    }
    socket.end(clientRefusal(error.code))
  })
  const emit = server.emit.bind(server)
  server.emit = ((event: string, ...args: Array<unknown>): boolean => {
    if (event !== "request") return emit(event, ...args)
    const [request, response] = args as [IncomingMessage, ServerResponse]
    const pass = () => emit(event, request, response)
    return (slot.read?.(request, response, pass) ?? false) || (slot.mcp?.(request, response, pass) ?? false) || pass()
  }) as Server["emit"]
  return server
}

/** The listener, and the slot where the served API puts its lanes (lanes.ts). */
export const listenerLayer = (limits: RequestLimitSettings, options: { readonly port: number; readonly host?: string }) =>
  Layer.unwrapEffect(Effect.sync(() => {
    const slot: LaneSlot["Type"] = { read: undefined, mcp: undefined }
    return Layer.merge(NodeHttpServer.layer(() => makeServer(limits, slot), options), Layer.succeed(LaneSlot, slot))
  }))
