// POST /mcp: the MCP server, Streamable HTTP on the API's own port. Stateless: one SDK Server per
// process answers every request in plain JSON (mcp-exchange.ts), so a bare tools/call without
// initialize works and any API process can serve any request. The route guards itself (HttpApi middleware
// does not cover it): Host and Origin first (DNS rebinding), then the bearer token (an API token,
// or an OAuth access token issued for this resource). A tool call with a JSON body usually arrives by the
// MCP lane (mcp-lane.ts), which hands it to the same server through `answerMcp` without the middleware stack.
import { type Headers, HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { type CallToolRequest, CallToolRequestSchema, type JSONRPCMessage, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { Context, Effect, Either, Layer, Runtime } from "effect"
import { mcpResource } from "../../domain/oauth.ts"
import type { OAuthStore } from "../../domain/ports/oauth-store.ts"
import type { Workspace } from "../../domain/ports/workspace-store.ts"
import type { CatalogueServices } from "../../src/catalogue.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { authenticateMcp, type McpUnauthenticated } from "../../src/ops/oauth/authenticate-mcp.ts"
import { type ExchangeAnswer, ExchangeTransport } from "./mcp-exchange.ts"
import { callTool, TOOLS } from "./mcp-tools.ts"
import { rebindingProblem } from "./rebinding-guard.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** The version of the API the tools mirror (the OpenAPI document says the same). */
const SERVER_INFO = { name: "reelwright", version: "1" }

const INSTRUCTIONS =
  "Reelwright makes short videos. Video-creating tools answer at once with status `processing`: call get_video " +
  "with the returned id until it is `completed` or `failed`, or pass `webhookUrl`. A failing tool answers with text " +
  "that says what to change; correct the arguments and call again."

const TOOL_LIST = TOOLS.map(({ annotations, description, inputSchema, name, outputSchema, title }) => ({
  name,
  title,
  description,
  inputSchema,
  ...(outputSchema === undefined ? {} : { outputSchema }),
  annotations
}))

/** Refusals before the MCP server is reached, in the JSON-RPC error shape the SDK's transport uses. */
export const refusal = (status: number, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson({ jsonrpc: "2.0", error: { code: -32000, message }, id: null }, { status, headers })

export const bearerToken = (authorization: string | undefined): string | undefined =>
  /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1]

/** RFC 6750 allows printable ASCII but `"` and `\` inside a quoted error_description. */
const quotable = (text: string): string => text.replace(/[^\x20-\x7e]|["\\]/g, "'")

/** The challenge that lets a client find the OAuth flow on its own (RFC 9728, RFC 6750). */
const challenge = (baseUrl: string, refused: McpUnauthenticated): string => {
  const metadata = `resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"`
  return refused.reason === "missing"
    ? `Bearer ${metadata}`
    : `Bearer error="invalid_token", error_description="${quotable(refused.message)}", ${metadata}`
}

/** What a tool call needs of the HTTP request that brought it. */
interface Caller {
  readonly workspace: Workspace
  /** The request's runtime: its services, and its log annotations and span for the call's own. */
  readonly runtime: Runtime.Runtime<CatalogueServices>
}

/** A tool call for the workspace, as the Server's handler and the request's own fiber run it. */
const callToolFor = (workspace: Workspace, request: CallToolRequest) =>
  callTool(request.params.name, request.params.arguments).pipe(
    Effect.provideService(CurrentWorkspace, workspace),
    Effect.annotateLogs({ workspaceId: workspace.id })
  )

/**
 * The POST's one message when it is a tools/call the Server would take (its request check passes and it
 * asks for no task): the request's own fiber runs it. Through the Server, a call cost a second fiber, the
 * SDK's dispatch with its AbortController, and a check of our own answer against the result schema,
 * more than the tool itself for a read. Anything else goes through the Server.
 */
const directToolCall = (messages: ReadonlyArray<JSONRPCMessage>): (CallToolRequest & { readonly id: string | number }) | undefined => {
  const [message] = messages
  if (messages.length !== 1 || message === undefined || !("method" in message) || message.method !== "tools/call" || !("id" in message)) {
    return undefined
  }
  const checked = CallToolRequestSchema.safeParse(message)
  return checked.success && checked.data.params.task === undefined ? { ...checked.data, id: message.id } : undefined
}

/** The process's one MCP server: built once, tool list and validators included, and shared by every request. */
const mcpServer = (): ExchangeTransport<Caller> => {
  const transport = new ExchangeTransport<Caller>()
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const caller = transport.contextOf(extra.requestId)
    // Unreachable: the transport knows every request it let in until its answer leaves.
    if (caller === undefined) throw new Error("no caller for this request")
    return Runtime.runPromise(caller.runtime)(callToolFor(caller.workspace, request), { signal: extra.signal })
  })
  // Connecting to this transport only sets its callbacks: nothing to wait for.
  void server.connect(transport)
  return transport
}

/** The MCP server of the process, which the route and the lane (mcp-lane.ts) both hand their requests to. */
export class McpServer extends Context.Tag("mcp/McpServer")<McpServer, ExchangeTransport<Caller>>() {
  static readonly Live = Layer.sync(McpServer, mcpServer)
}

/** What /mcp reads of a request: its method, its headers, and its body, read under the caps when asked for. */
export interface McpRequest<E, R> {
  readonly method: string
  readonly headers: Headers.Headers
  readonly body: Effect.Effect<string, E, R>
}

/** One JSON-RPC exchange for an authenticated workspace. */
const answer = <E, R>(transport: ExchangeTransport<Caller>, request: McpRequest<E, R>, workspace: Workspace) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<CatalogueServices>()
    // Read under the body cap before anything parses it.
    const text = yield* request.body
    const received = transport.read(request.headers, text)
    const call = received._tag === "Messages" ? directToolCall(received.messages) : undefined
    if (call !== undefined) {
      return HttpServerResponse.unsafeJson({ jsonrpc: "2.0", id: call.id, result: yield* callToolFor(workspace, call) })
    }
    const answered = received._tag === "Refused" ? received.answer : yield* Effect.async<ExchangeAnswer>((resume, abandon) => {
      transport.dispatch(received.messages, { workspace, runtime }, abandon).then((a) => resume(Effect.succeed(a)), (e) => resume(Effect.die(e)))
    })
    return answered.body === null
      ? HttpServerResponse.empty({ status: answered.status })
      : HttpServerResponse.unsafeJson(answered.body, { status: answered.status })
  })

/** The answer to a request at /mcp, past the rate budget and the body's cap: the route's and the lane's. */
export const answerMcp = <E, R>(transport: ExchangeTransport<Caller>, request: McpRequest<E, R>) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const foreign = rebindingProblem({ host: request.headers["host"], origin: request.headers["origin"] }, baseUrl)
    if (foreign !== null) return refusal(403, foreign)
    const authenticated = yield* Effect.either(authenticateMcp(bearerToken(request.headers["authorization"]), mcpResource(baseUrl)))
    if (Either.isLeft(authenticated)) {
      return refusal(401, authenticated.left.message, { "www-authenticate": challenge(baseUrl, authenticated.left) })
    }
    // Stateless: no SSE stream to open with GET, no session to end with DELETE.
    if (request.method !== "POST") return refusal(405, "Method not allowed: this server is stateless; send JSON-RPC with POST.", { allow: "POST" })
    return yield* answer(transport, request, authenticated.right)
  }).pipe(withSpan("serveMcp", { captureStackTrace: false }))

export const McpRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const transport = yield* McpServer
    const serveMcp = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
      answerMcp(transport, { method: request.method, headers: request.headers, body: request.text }))
    const handler = Effect.provide(serveMcp, yield* Effect.context<CatalogueServices | OAuthStore>())
    yield* router.post("/mcp", handler)
    yield* router.get("/mcp", handler)
    yield* router.del("/mcp", handler)
  })
)
