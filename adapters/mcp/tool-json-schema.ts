// The JSON Schemas of a tool's input and output, from the operation's own Schemas, as an assistant
// reads them: each field with the description its Schema gives, and every named part written in place
// (no `$defs` and `$ref`: several MCP clients pass schemas to models that cannot follow them).
import { JSONSchema, Predicate, type Schema } from "effect"
import { describedSchema } from "../described-schema.ts"

/** A JSON Schema whose root is an object, the only kind MCP allows for a tool's input and output. */
export interface ObjectJsonSchema {
  readonly type: "object"
  readonly [key: string]: unknown
}

type JsonObject = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is JsonObject => Predicate.isRecord(value)

/** Keywords that only say something about the value: they may sit beside the schema they annotate. */
const ANNOTATIONS = new Set(["title", "description", "default", "examples"])

const defName = (ref: string): string => ref.slice("#/$defs/".length).replace(/~1/g, "/").replace(/~0/g, "~")

type Wording = (text: string) => string

/**
 * Every `$ref` replaced by the definition it names; `{ allOf: [x], description }` (Effect's way of
 * annotating a reference) becomes x with the description; each description passed through `wording`.
 * A recursive definition cannot be written in place: it throws, so a tool with one fails at start, not
 * in a client.
 */
const inlined = (node: unknown, defs: JsonObject, within: ReadonlyArray<string>, wording: Wording): unknown => {
  if (Array.isArray(node)) return node.map((n) => inlined(n, defs, within, wording))
  if (!isObject(node)) return node
  const { $defs: _, $ref, ...rest } = node
  if (typeof $ref === "string") {
    const name = defName($ref)
    if (within.includes(name)) throw new Error(`The schema ${name} refers to itself; a tool's schema must be written in place.`)
    const target = inlined(defs[name], defs, [...within, name], wording)
    return Object.keys(rest).length === 0 ? target : merged(target, inlined(rest, defs, within, wording))
  }
  const out = Object.fromEntries(Object.entries(rest).map(([key, value]) => [
    key,
    key === "description" && typeof value === "string" ? wording(value) : inlined(value, defs, within, wording)
  ]))
  const { allOf, ...beside } = out
  return Array.isArray(allOf) && allOf.length === 1 && Object.keys(beside).every((k) => ANNOTATIONS.has(k))
    ? merged(allOf[0], beside)
    : out
}

const merged = (target: unknown, beside: unknown): unknown => (isObject(target) && isObject(beside) ? { ...target, ...beside } : target)

/** An object whose every possible value is an object: `type: "object"`, or a union of such. */
const isObjectSchema = (schema: JsonObject): boolean =>
  schema["type"] === "object" ||
  (Array.isArray(schema["anyOf"]) && schema["anyOf"].every((s) => isObject(s) && isObjectSchema(s)))

/**
 * The JSON Schema of what `schema` encodes to (JSON Schema 2020-12, the MCP default), written in place
 * with its descriptions in `wording`, or null when its values are not all objects (MCP takes only object
 * schemas for a tool).
 */
export const objectJsonSchema = (schema: Schema.Schema.AnyNoContext, wording: Wording = (text) => text): ObjectJsonSchema | null => {
  const made = JSONSchema.make(describedSchema(schema), { target: "jsonSchema2020-12" })
  const defs: JsonObject = isObject(made.$defs) ? made.$defs : {}
  const written = inlined(made, defs, [], wording)
  if (!isObject(written) || !isObjectSchema(written)) return null
  const { $schema, ...body } = written
  return { $schema, ...body, type: "object" }
}
