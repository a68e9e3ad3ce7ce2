// What a tool says about itself to an assistant, derived from its operation: title, hints, and a
// description that names tools where the shared text names HTTP routes, then what the call costs (from
// the price list GET /v1/pricing serves) and which tool to call next.
import { PRICE_LIST, type PriceRow } from "../../domain/price-list.ts"
import type { AnyOperation } from "../../src/kernel/operation.ts"

/** MCP's tool annotations, every hint stated (a client assumes the worst of one left out). */
export interface ToolAnnotations {
  readonly title: string
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  readonly openWorldHint: boolean
}

export const toolAnnotations = (op: AnyOperation): ToolAnnotations => ({
  title: op.summary,
  readOnlyHint: op.http.method === "GET",
  destructiveHint: op.http.method === "DELETE" || op.destructive === true,
  // A create is safe to repeat over HTTP only with an Idempotency-Key, which a tool call cannot send.
  idempotentHint: op.http.method === "GET" || op.http.method === "PUT" || op.http.method === "DELETE",
  openWorldHint: op.openWorld === true
})

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** `GET /v1/videos/:id` as the descriptions write it (`{id}` or `:id`), not as the start of a longer path. */
const routePattern = (op: AnyOperation): RegExp => {
  const path = op.http.path.split("/").map((segment) =>
    segment.startsWith(":") ? `(?:${escaped(segment)}|\\{${escaped(segment.slice(1))}\\})` : escaped(segment)
  ).join("/")
  return new RegExp(`\\b${op.http.method} ${path}(?![\\w/{:-])`, "g")
}

/**
 * Text written for HTTP readers (descriptions, failure messages) with each route that is a tool replaced
 * by the tool's name: "poll GET /v1/videos/{id}" reads "poll get_video".
 */
export const toolWording = (tools: ReadonlyArray<AnyOperation>): (text: string) => string => {
  const routes = tools.flatMap((op) => (op.tool === null ? [] : [{ pattern: routePattern(op), tool: op.tool }]))
  return (text) => routes.reduce((said, { pattern, tool }) => said.replace(pattern, tool), text)
}

const priceText = (row: PriceRow): string => {
  const amount = `${row.amount} ${row.currency}`
  const per = row.counted === "per started minute" ? `per started ${row.per}` : `per ${row.per}`
  return `${amount} ${per} for ${row.item}`
}

/** "Free." or what each priced item costs; nothing when the price list has no row (its test fails then). */
const costText = (op: AnyOperation): string | null => {
  const rows = PRICE_LIST[op.name]
  if (rows === undefined) return null
  const paid = rows.filter((row) => row.amount > 0)
  return paid.length === 0 ? "Free." : `Costs: ${paid.map(priceText).join("; ")}.`
}

const toolOfOp = (tools: ReadonlyArray<AnyOperation>, name: string): string | null =>
  tools.find((t) => t.name === name)?.tool ?? null

/** The read of the record a write on `/v1/videos/:id/render` acts on: the tool at `GET /v1/videos/:id`. */
const recordRead = (op: AnyOperation, tools: ReadonlyArray<AnyOperation>): string | null => {
  if (op.http.method === "GET" || !("id" in op.path.fields)) return null
  const segments = op.http.path.split("/")
  const record = segments.slice(0, segments.indexOf(":id") + 1).join("/")
  return tools.find((t) => t.http.method === "GET" && t.http.path === record)?.tool ?? null
}

const nextText = (op: AnyOperation, tools: ReadonlyArray<AnyOperation>): string | null => {
  const readBack = op.readBack === undefined ? null : toolOfOp(tools, op.readBack.name)
  if (readBack !== null) {
    const callback = "webhookUrl" in op.payload.fields ? " (or pass `webhookUrl` to be called back)" : ""
    return `Next: call ${readBack} with the returned \`id\` until its \`status\` is \`completed\` or \`failed\`${callback}.`
  }
  if ("cursor" in op.payload.fields && op.tool !== null) {
    return `Next: while \`nextCursor\` is not null, call ${op.tool} again with it as \`cursor\` for the next page.`
  }
  const read = recordRead(op, tools)
  return read === null ? null : `Next: call ${read} with the same \`id\` to see where it stands.`
}

/**
 * The operation's summary and description in tool terms (descriptions are written to follow the
 * summary), then its price and the tool to call next.
 */
export const toolDescription = (op: AnyOperation, tools: ReadonlyArray<AnyOperation>, wording: (text: string) => string): string =>
  [`${op.summary}.`, wording(op.description), costText(op), nextText(op, tools)].filter((part) => part !== null).join(" ")
