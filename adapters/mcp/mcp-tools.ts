// The MCP tools, derived from the operation catalogue: every workspace operation with a tool name is
// offered under it, its title, hints, description and input and output JSON Schemas generated from the
// declaration, its arguments decoded with the operation's Schema and its handler run as-is, so a tool
// validates, charges and sends events exactly like its HTTP route. The answer is the encoded output,
// as JSON text and as `structuredContent`, with the file it made when it made one. Failures come back
// as `isError` results that say what to change.
import { Duration, Effect, FiberRef, LogLevel, ParseResult, Predicate, Schema, SchemaAST as AST } from "effect"
import type { DomainError } from "../../domain/errors.ts"
import { catalogue, type CatalogueServices } from "../../src/catalogue.ts"
import type { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import type { AnyOperation } from "../../src/kernel/operation.ts"
import { isTextual, refinedBase } from "../../src/kernel/text-input.ts"
import { objectJsonSchema, type ObjectJsonSchema } from "./tool-json-schema.ts"
import { mediaContent, type MediaContent } from "./tool-media.ts"
import { toolAnnotations, type ToolAnnotations, toolDescription, toolWording } from "./tool-wording.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export type ToolContent = { readonly type: "text"; readonly text: string } | MediaContent

export interface ToolResult {
  readonly [key: string]: unknown
  readonly content: ReadonlyArray<ToolContent>
  readonly structuredContent?: Record<string, unknown>
  readonly isError?: boolean
}

export interface McpTool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly annotations: ToolAnnotations
  /** Plain object schemas (JSON Schema 2020-12, the MCP default), every named part written in place. */
  readonly inputSchema: ObjectJsonSchema
  /** Absent when the operation's answer is not an object: MCP takes only object schemas here. */
  readonly outputSchema?: ObjectJsonSchema
  readonly operation: AnyOperation<CatalogueServices | CurrentWorkspace>
  readonly input: Schema.Schema<Record<string, unknown>, unknown>
}

const isNumberOrBoolean = (ast: AST.AST): boolean => {
  const base = refinedBase(ast)
  return AST.isNumberKeyword(base) || AST.isBooleanKeyword(base) ||
    (AST.isLiteral(base) && (typeof base.literal === "number" || typeof base.literal === "boolean")) ||
    (AST.isUnion(base) && base.types.every(isNumberOrBoolean))
}

/**
 * A field that travels in the URL is text, so its Schema may read a number or a boolean out of a
 * string (`NumberFromString`). Tool arguments are JSON, where the value is sent as itself: the
 * field is taken on its decoded side, with the same checks (integer, bounds).
 */
const asJsonValue = (ast: AST.AST): AST.AST => {
  if (AST.isUnion(ast)) return AST.Union.make(ast.types.map(asJsonValue), ast.annotations)
  const decoded = AST.typeAST(ast)
  return isTextual(refinedBase(AST.encodedAST(ast))) && isNumberOrBoolean(decoded) ? decoded : ast
}

const withJsonValues = (ast: AST.AST, fromUrl: ReadonlySet<PropertyKey>): AST.AST => {
  if (AST.isTypeLiteral(ast)) {
    return new AST.TypeLiteral(
      ast.propertySignatures.map((p) =>
        fromUrl.has(p.name) ? new AST.PropertySignature(p.name, asJsonValue(p.type), p.isOptional, p.isReadonly, p.annotations) : p
      ),
      ast.indexSignatures,
      ast.annotations
    )
  }
  // A struct with defaults (`optionalWith`) is a transformation of its encoded fields.
  if (AST.isTransformation(ast)) {
    return new AST.Transformation(withJsonValues(ast.from, fromUrl), ast.to, ast.transformation, ast.annotations)
  }
  return ast
}

/**
 * The tool's input: the operation's path and payload fields in one object, decoded by the same
 * Schemas. Fields HTTP carries in the URL (the path, and the query of a GET) take JSON values.
 */
export const toolInput = (op: AnyOperation): Schema.Schema<Record<string, unknown>, unknown> => {
  const struct = Schema.Struct({ ...op.path.fields, ...op.payload.fields })
  const fromUrl = new Set<PropertyKey>([
    ...Object.keys(op.path.fields),
    ...(op.http.method === "GET" ? Object.keys(op.payload.fields) : [])
  ])
  return Schema.make(withJsonValues(struct.ast, fromUrl))
}

/** Admin operations are never tools, whatever they declare. */
const toolOperations = catalogue.filter((op) => op.tool !== null && op.access === "workspace")

/** Routes named in the shared texts (descriptions, failures), as tool names. */
const wording = toolWording(toolOperations)

/**
 * Without fields, Schema renders the `{}` type ("any object or array"); MCP wants an object with no
 * properties.
 */
const inputJsonSchema = (op: AnyOperation, input: McpTool["input"]): ObjectJsonSchema => {
  const schema = objectJsonSchema(input, wording)
  return schema === null || Object.keys(op.path.fields).length + Object.keys(op.payload.fields).length === 0
    ? { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: {}, additionalProperties: false }
    : schema
}

const toolOf = (op: AnyOperation<CatalogueServices | CurrentWorkspace>): McpTool => {
  const input = toolInput(op)
  const output = objectJsonSchema(op.output, wording)
  return {
    name: op.tool!,
    title: op.summary,
    description: toolDescription(op, toolOperations, wording),
    annotations: toolAnnotations(op),
    inputSchema: inputJsonSchema(op, input),
    ...(output === null ? {} : { outputSchema: output }),
    operation: op,
    input
  }
}

export const TOOLS: ReadonlyArray<McpTool> = toolOperations.map(toolOf)

const byName = new Map(TOOLS.map((tool) => [tool.name, tool]))

const failed = (text: string): ToolResult => ({ content: [{ type: "text", text: wording(text) }], isError: true })

const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`)

/** "Expected 30" and "Expected 60" at one place read as "Expected 30 or 60". */
const mergeExpected = (messages: ReadonlyArray<string>): string => {
  const expected = messages.map((m) => /^Expected (.*), actual (.*)$/s.exec(m))
  return messages.length > 1 && expected.every((m) => m !== null)
    ? `Expected ${expected.map((m) => m![1]).join(" or ")}, actual ${expected[0]![2]}`
    : messages.join("; ")
}

/**
 * Each wrong field by its path (`render.frameRate`) with what is wrong with it. An optional field is
 * a union with undefined, whose "Expected undefined" alternative only adds noise.
 */
const describeIssues = (error: ParseResult.ParseError): string => {
  const all = ParseResult.ArrayFormatter.formatErrorSync(error)
  const meaningful = all.filter((issue) => !issue.message.startsWith("Expected undefined,"))
  const byPath = new Map<string, Array<string>>()
  for (const issue of meaningful.length > 0 ? meaningful : all) {
    const path = issue.path.length === 0 ? "arguments" : issue.path.map(String).join(".")
    byPath.set(path, [...(byPath.get(path) ?? []), issue.message])
  }
  return [...byPath].map(([path, messages]) => `${path}: ${mergeExpected(messages)}`).join("; ")
}

const failureText = (error: DomainError): string => {
  switch (error._tag) {
    case "InvalidInput":
      return `Invalid argument ${error.field}: ${sentence(error.message)} Correct \`${error.field}\` and call again.`
    case "NotFound":
      return `${error.message} Check the id: it is the one a create call of this workspace returned.`
    case "InsufficientCredits":
      return `${error.message} Top up the workspace's credits, then call again.`
    case "InsufficientCash":
      return `${error.message} BYOK renders are paid from the cash balance: have it topped up, then call again.`
    case "PlanForbids":
      return `${sentence(error.message)} The workspace is on the ${error.plan} plan: move it to a paid plan, then call again.`
    case "Conflict":
      return `${sentence(error.message)} Check the video's state with get_video and call again when it allows this.`
    case "Unauthenticated":
      return `${sentence(error.message)} Authorize again.`
    case "Unavailable":
      return `${sentence(error.message)} Call again shortly, or choose another voice.`
  }
}

const unknownTool = (name: string): ToolResult =>
  failed(`No tool named ${JSON.stringify(name.slice(0, 100))}. The tools are: ${TOOLS.map((t) => t.name).join(", ")}.`)

const runTool = (tool: McpTool, args: unknown) =>
  Effect.gen(function*() {
    const decoded = yield* Schema.decodeUnknown(tool.input)(args ?? {}, { errors: "all" }).pipe(Effect.either)
    if (decoded._tag === "Left") {
      return failed(`Invalid arguments for ${tool.name}: ${describeIssues(decoded.left)}. Correct them and call again.`)
    }
    const outcome = yield* Effect.either(tool.operation.handle(decoded.right))
    if (outcome._tag === "Left") return failed(failureText(outcome.left))
    // structuredContent is what the outputSchema describes: the encoded answer, as HTTP sends it.
    const encoded = yield* Effect.orDie(Schema.encodeUnknown(tool.operation.output)(outcome.right))
    const structured = tool.outputSchema !== undefined && Predicate.isRecord(encoded) ? { structuredContent: encoded } : {}
    const media = tool.operation.answersFile === true ? yield* mediaContent(encoded) : []
    return { content: [{ type: "text" as const, text: JSON.stringify(encoded) }, ...media], ...structured } satisfies ToolResult
  })

/**
 * Calls a tool for the current workspace. Never fails: a bug or an outage becomes an `isError`
 * result too (and is logged), so the client's session goes on.
 */
export const callTool = (name: string, args: unknown): Effect.Effect<ToolResult, never, CatalogueServices | CurrentWorkspace> => {
  const tool = byName.get(name)
  return (tool === undefined ? Effect.succeed(unknownTool(name)) : runTool(tool, args)).pipe(
    Effect.catchAllCause((cause) =>
      Effect.as(
        Effect.logError("mcp tool failed", cause),
        failed("The server failed while running this tool; the failure was logged. Call again later.")
      )
    ),
    Effect.timed,
    Effect.tap(([duration, result]) =>
      Effect.gen(function*() {
        // A read that succeeded is what assistants poll: logged at debug, as a polled GET's access line is.
        const level = result.isError !== true && tool?.annotations.readOnlyHint === true ? LogLevel.Debug : LogLevel.Info
        if (LogLevel.lessThan(level, yield* FiberRef.get(FiberRef.currentMinimumLogLevel))) return
        yield* Effect.logWithLevel(level, "mcp tool call").pipe(
          Effect.annotateLogs({
            tool: name.slice(0, 100),
            outcome: result.isError === true ? "error" : "ok",
            durationMs: Math.round(Duration.toMillis(duration))
          })
        )
      })
    ),
    Effect.map(([, result]) => result),
    withSpan("mcp.callTool", { captureStackTrace: false, attributes: { tool: name.slice(0, 100) } })
  )
}
