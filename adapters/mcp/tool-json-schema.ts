// The JSON Schemas of a tool's input and output, from the operation's own Schemas, as an assistant
// reads them: each field with the description its Schema gives, and every named part written in place
// (no `$defs` and `$ref`: several MCP clients pass schemas to models that cannot follow them).
import { JSONSchema, Option, Predicate, Schema, SchemaAST as AST } from "effect"

/** A JSON Schema whose root is an object, the only kind MCP allows for a tool's input and output. */
export interface ObjectJsonSchema {
  readonly type: "object"
  readonly [key: string]: unknown
}

type JsonObject = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is JsonObject => Predicate.isRecord(value)

/**
 * Effect writes a filter it cannot express in JSON Schema (`isHttpsUrl`) as the type it refines, and
 * drops its annotations with it: `WebhookUrl` would be described as "a string at most 1024 character(s)
 * long". An empty `jsonSchema` annotation on such a filter keeps its description and title, adding no
 * keyword. Effect's own filters (those with a schema id) title themselves after their code (`int`,
 * `maxLength(4096)`): noise beside the keyword that says the same, so that title goes.
 */
const describedRefinements = (ast: AST.AST): AST.AST => {
  switch (ast._tag) {
    case "Refinement": {
      const { [AST.TitleAnnotationId]: _builtInTitle, ...untitled } = ast.annotations
      const annotations = Option.isSome(AST.getSchemaIdAnnotation(ast)) ? untitled : ast.annotations
      const described = Option.isSome(AST.getJSONSchemaAnnotation(ast)) ? annotations : { ...annotations, [AST.JSONSchemaAnnotationId]: {} }
      return new AST.Refinement(describedRefinements(ast.from), ast.filter, described)
    }
    case "TypeLiteral":
      return new AST.TypeLiteral(
        ast.propertySignatures.map((p) =>
          new AST.PropertySignature(p.name, describedRefinements(p.type), p.isOptional, p.isReadonly, p.annotations)
        ),
        ast.indexSignatures.map((i) => new AST.IndexSignature(i.parameter, describedRefinements(i.type), i.isReadonly)),
        ast.annotations
      )
    case "Union":
      return AST.Union.make(ast.types.map(describedRefinements), ast.annotations)
    case "TupleType":
      return new AST.TupleType(
        ast.elements.map((e) => new AST.OptionalType(describedRefinements(e.type), e.isOptional, e.annotations)),
        ast.rest.map((r) => new AST.Type(describedRefinements(r.type), r.annotations)),
        ast.isReadonly,
        ast.annotations
      )
    case "Transformation":
      return new AST.Transformation(describedRefinements(ast.from), describedRefinements(ast.to), ast.transformation, withSurrogate(ast))
    case "Declaration":
      return new AST.Declaration(ast.typeParameters, ast.decodeUnknown, ast.encodeUnknown, withSurrogate(ast))
    case "Suspend":
      return new AST.Suspend(() => describedRefinements(ast.f()), ast.annotations)
    default:
      return ast
  }
}

/** A Schema.Class is written from the struct its surrogate annotation holds, so that struct is rewritten too. */
const withSurrogate = (ast: AST.AST): AST.Annotations => {
  const surrogate = AST.getSurrogateAnnotation(ast)
  return Option.isNone(surrogate) ? ast.annotations : { ...ast.annotations, [AST.SurrogateAnnotationId]: describedRefinements(surrogate.value) }
}

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
  const made = JSONSchema.make(Schema.make(describedRefinements(schema.ast)), { target: "jsonSchema2020-12" })
  const defs: JsonObject = isObject(made.$defs) ? made.$defs : {}
  const written = inlined(made, defs, [], wording)
  if (!isObject(written) || !isObjectSchema(written)) return null
  const { $schema, ...body } = written
  return { $schema, ...body, type: "object" }
}
