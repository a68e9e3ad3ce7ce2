// Streamable HTTP in JSON mode over one SDK Server for the whole process. The SDK's stateless
// transport serves one request and is then spent, so it needs a Server of its own per request; those
// (and the web Request and streams the transport reads) cost more than the tool call. Here each HTTP
// request hands its JSON-RPC messages to the one Server and waits for its answers. The HTTP checks
// are the SDK transport's, in its order and with its codes and messages (`read`); a lone tool call
// skips the Server (mcp-route.ts, `directToolCall`). Clients pick their own
// request ids, so two of them may send the same one at once: each request goes in under an id of the
// process's own and its answer comes back under the client's.
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { MAX_BATCH_SIZE } from "@modelcontextprotocol/sdk/server/requestBody.js"
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS
} from "@modelcontextprotocol/sdk/types.js"

/** What the HTTP side answers: a status and a JSON document, or no body (202). */
export interface ExchangeAnswer {
  readonly status: number
  readonly body: unknown
}

/** A POST as read: refused with its answer, or its JSON-RPC messages. */
export type Received =
  | { readonly _tag: "Refused"; readonly answer: ExchangeAnswer }
  | { readonly _tag: "Messages"; readonly messages: ReadonlyArray<JSONRPCMessage> }

const refused = (status: number, code: number, message: string): Received => ({
  _tag: "Refused",
  answer: { status, body: { jsonrpc: "2.0", error: { code, message }, id: null } }
})

type Answer = JSONRPCResultResponse | JSONRPCErrorResponse

interface InFlight<C> {
  readonly context: C
  readonly clientId: RequestId
  readonly answered: (answer: Answer) => void
}

/**
 * The transport of the process's one Server. `C` is what a request's handlers need of the HTTP request
 * that brought it (the workspace, the request's runtime): found with `contextOf(extra.requestId)`.
 */
export class ExchangeTransport<C> implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  private lastId = 0
  private readonly inFlight = new Map<number, InFlight<C>>()

  start(): Promise<void> {
    return Promise.resolve()
  }

  close(): Promise<void> {
    this.onclose?.()
    return Promise.resolve()
  }

  /** The Server's answers; what it would send unasked (notifications, requests) has no stream to go to when stateless. */
  send(message: JSONRPCMessage): Promise<void> {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && typeof message.id === "number") {
      const waiting = this.inFlight.get(message.id)
      if (waiting !== undefined) {
        this.inFlight.delete(message.id)
        waiting.answered({ ...message, id: waiting.clientId })
      }
    }
    return Promise.resolve()
  }

  contextOf(id: RequestId): C | undefined {
    return typeof id === "number" ? this.inFlight.get(id)?.context : undefined
  }

  /** One request through the Server; `abandon` (the HTTP request went away) cancels its handler. */
  private exchange(request: JSONRPCRequest, context: C, abandon: AbortSignal): Promise<Answer> {
    const id = ++this.lastId
    return new Promise((answered) => {
      this.inFlight.set(id, { context, clientId: request.id, answered })
      abandon.addEventListener("abort", () => {
        if (!this.inFlight.delete(id)) return
        this.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id, reason: "The HTTP request was abandoned." } })
      }, { once: true })
      this.onmessage?.({ ...request, id })
    })
  }

  /**
   * A POST's JSON-RPC messages, once the checks of the SDK's stateless transport in JSON mode pass;
   * otherwise the refusal it would answer.
   */
  read(headers: Readonly<Record<string, string | undefined>>, body: string): Received {
    const accept = headers["accept"]
    if (accept === undefined || !accept.includes("application/json") || !accept.includes("text/event-stream")) {
      return refused(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream")
    }
    if (!isJsonContentType(headers["content-type"])) {
      return refused(415, -32000, "Unsupported Media Type: Content-Type must be application/json")
    }
    let raw: unknown
    try {
      raw = JSON.parse(body)
    } catch {
      return refused(400, -32700, "Parse error: Invalid JSON")
    }
    if (Array.isArray(raw) && raw.length > MAX_BATCH_SIZE) {
      return refused(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`)
    }
    const parsed = (Array.isArray(raw) ? raw : [raw]).map((message) => JSONRPCMessageSchema.safeParse(message))
    const messages: Array<JSONRPCMessage> = []
    for (const result of parsed) {
      if (!result.success) return refused(400, -32700, "Parse error: Invalid JSON-RPC message")
      messages.push(result.data)
    }
    if (messages.some(isInitializeRequest)) {
      if (messages.length > 1) return refused(400, -32600, "Invalid Request: Only one initialization request is allowed")
    } else {
      const version = headers["mcp-protocol-version"]
      if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
        return refused(
          400,
          -32000,
          `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`
        )
      }
    }
    return { _tag: "Messages", messages }
  }

  /**
   * A POST's messages through the Server, answered as the SDK's stateless transport in JSON mode answers
   * them. A client's notifications are acknowledged and dropped: a `notifications/cancelled` would name its
   * own request id, which may be another client's here, and none of the others means anything without a session.
   */
  async dispatch(messages: ReadonlyArray<JSONRPCMessage>, context: C, abandon: AbortSignal): Promise<ExchangeAnswer> {
    const requests = messages.filter(isJSONRPCRequest)
    if (requests.length === 0) return { status: 202, body: null }
    const answers = await Promise.all(requests.map((request) => this.exchange(request, context, abandon)))
    return { status: 200, body: answers.length === 1 ? answers[0] : answers }
  }
}
