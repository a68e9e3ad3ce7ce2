// POST /mcp: the MCP server, Streamable HTTP on the API's own port. Stateless: every request gets a
// new SDK Server and transport answering in plain JSON, so a bare tools/call without initialize
// works and any API process can serve any request. The route guards itself (HttpApi middleware
// does not cover it): Host and Origin first (DNS rebinding), then the bearer token (an API token,
// or an OAuth access token issued for this resource).
import { HttpApiBuilder, HttpServerError, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { Effect, Either, Option, Runtime } from "effect"
import { mcpResource } from "../../domain/oauth.ts"
import type { OAuthStore } from "../../domain/ports/oauth-store.ts"
import type { Workspace } from "../../domain/ports/workspace-store.ts"
import type { CatalogueServices } from "../../src/catalogue.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { authenticateMcp, type McpUnauthenticated } from "../../src/ops/oauth/authenticate-mcp.ts"
import { callTool, TOOLS, type ToolResult } from "./mcp-tools.ts"
import { rebindingProblem } from "./rebinding-guard.ts"

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

/**
 * The SDK gives each Server a JSON Schema validator of its own (for elicitation answers, which we never
 * ask for); building it dominates a request's cost, and a server per request would build it every time.
 */
const SCHEMA_VALIDATOR = new AjvJsonSchemaValidator()

const mcpServer = (call: (name: string, args: unknown, signal: AbortSignal) => Promise<ToolResult>): Server => {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
    jsonSchemaValidator: SCHEMA_VALIDATOR
  })
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    call(request.params.name, request.params.arguments, extra.signal))
  return server
}

/** One JSON-RPC exchange for an authenticated workspace, through a server and transport of its own. */
const answer = (request: HttpServerRequest.HttpServerRequest, workspace: Workspace) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<CatalogueServices>()
    const call = (name: string, args: unknown, signal: AbortSignal) =>
      Runtime.runPromise(runtime)(
        callTool(name, args).pipe(
          Effect.provideService(CurrentWorkspace, workspace),
          Effect.annotateLogs({ workspaceId: workspace.id })
        ),
        { signal }
      )
    // Read (under the body cap) before the SDK sees it: a refusal is then answered as JSON-RPC here,
    // not lost inside the web stream the SDK reads. The SDK gets the text as read, not the request's
    // stream bridged into a web stream.
    const body = yield* request.text
    const url = HttpServerRequest.toURL(request)
    if (Option.isNone(url)) return yield* new HttpServerError.RequestError({ request, reason: "Decode", description: "Invalid URL" })
    const web = new Request(url.value, { method: request.method, headers: request.headers, body })
    const answered = yield* Effect.acquireUseRelease(
      Effect.promise(async () => {
        const server = mcpServer(call)
        // No sessionIdGenerator: stateless.
        const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
        await server.connect(transport)
        return { server, transport }
      }),
      // In JSON mode the answer is one small document: taken whole here, it is sent with its length
      // instead of streamed through a web stream and an Effect Stream.
      ({ transport }) =>
        Effect.promise(async () => {
          const response = await transport.handleRequest(web)
          return { response, body: response.body === null ? null : await response.text() }
        }),
      ({ server }) => Effect.promise(() => server.close())
    )
    const options = { status: answered.response.status, headers: answered.response.headers }
    return answered.body === null
      ? HttpServerResponse.empty(options)
      : HttpServerResponse.text(answered.body, { ...options, contentType: answered.response.headers.get("content-type") ?? undefined })
  })

const serveMcp = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { baseUrl } = yield* ServiceConfig
  const foreign = rebindingProblem({ host: request.headers["host"], origin: request.headers["origin"] }, baseUrl)
  if (foreign !== null) return refusal(403, foreign)
  const authenticated = yield* Effect.either(authenticateMcp(bearerToken(request.headers["authorization"]), mcpResource(baseUrl)))
  if (Either.isLeft(authenticated)) {
    return refusal(401, authenticated.left.message, { "www-authenticate": challenge(baseUrl, authenticated.left) })
  }
  // Stateless: no SSE stream to open with GET, no session to end with DELETE.
  if (request.method !== "POST") return refusal(405, "Method not allowed: this server is stateless; send JSON-RPC with POST.", { allow: "POST" })
  return yield* answer(request, authenticated.right)
}).pipe(Effect.withSpan("serveMcp"))

export const McpRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const handler = Effect.provide(serveMcp, yield* Effect.context<CatalogueServices | OAuthStore>())
    yield* router.post("/mcp", handler)
    yield* router.get("/mcp", handler)
    yield* router.del("/mcp", handler)
  })
)
