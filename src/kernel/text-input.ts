// An input field as text (a multipart form part, a CLI flag): numbers in decimal digits, true/false,
// objects and lists as JSON; each then decoded by the field's own Schema, so text input is checked
// exactly as JSON input is.
import { Option, Schema, SchemaAST as AST } from "effect"
import { IntegerFromText } from "../../domain/integer-text.ts"

/** A refined type's unrefined base (an `Int` is a number). */
export const refinedBase = (ast: AST.AST): AST.AST => (AST.isRefinement(ast) ? refinedBase(ast.from) : ast)

/** An optional field's type but for its `undefined`. */
const definedPart = (ast: AST.AST): AST.AST =>
  AST.isUnion(ast) && ast.types.some(AST.isUndefinedKeyword) ? AST.Union.make(ast.types.filter((t) => !AST.isUndefinedKeyword(t))) : ast

const isInteger = (ast: AST.AST): boolean =>
  AST.isRefinement(ast) && (Option.contains(AST.getSchemaIdAnnotation(ast), Schema.IntSchemaId) || isInteger(ast.from))

/** Whether a type is written as text as it is (strings, their literals and templates). */
export const isTextual = (ast: AST.AST): boolean =>
  AST.isStringKeyword(ast) || AST.isTemplateLiteral(ast) || (AST.isLiteral(ast) && typeof ast.literal === "string") ||
  (AST.isUnion(ast) && ast.types.every(isTextual))

/** How a field is written as text, for help texts. */
export type TextForm = "text" | "number" | "boolean" | "json"

export const textFormOf = (field: AST.AST): TextForm => {
  const encoded = refinedBase(AST.encodedAST(definedPart(field)))
  if (isTextual(encoded)) return "text"
  if (AST.isNumberKeyword(encoded)) return "number"
  if (AST.isBooleanKeyword(encoded)) return "boolean"
  return "json"
}

/** The field decoded from its text form; an optional field's `undefined` stays as it is. */
export const fieldFromText = (field: AST.AST): AST.AST => {
  if (definedPart(field) !== field) return AST.Union.make([fieldFromText(definedPart(field)), AST.undefinedKeyword], field.annotations)
  const schema = Schema.make(field)
  switch (textFormOf(field)) {
    case "text":
      return field
    case "number":
      return Schema.compose(isInteger(AST.typeAST(field)) ? IntegerFromText : Schema.NumberFromString, schema, { strict: false }).ast
    case "boolean":
      return Schema.compose(Schema.BooleanFromString, schema, { strict: false }).ast
    case "json":
      return Schema.parseJson(schema).ast
  }
}

/** The property signatures of a Struct, also one with defaults (a transformation of its encoded fields). */
export const fieldsOf = (ast: AST.AST): ReadonlyArray<AST.PropertySignature> =>
  AST.isTypeLiteral(ast) ? ast.propertySignatures : AST.isTransformation(ast) ? fieldsOf(ast.from) : []

/** How each form but plain text is written, told after what the field is. */
const FORM_NOTES: Readonly<Record<Exclude<TextForm, "text">, string>> = {
  number: "In decimal digits.",
  boolean: "As `true` or `false`.",
  json: "As a JSON string."
}

/**
 * What the field is, said where documents look for it (the property), with its text form: a document
 * describes the text, whose own description would only name its pattern.
 */
const describedAsText = (p: AST.PropertySignature): AST.Annotations => {
  const form = textFormOf(p.type)
  if (form === "text") return p.annotations
  const said = Option.orElse(AST.getDescriptionAnnotation(p), () => AST.getDescriptionAnnotation(definedPart(p.type)))
  return { ...p.annotations, [AST.DescriptionAnnotationId]: `${Option.getOrElse(said, () => "")} ${FORM_NOTES[form]}`.trim() }
}

/** Each field of a struct in its text form, optional where it was. */
export const textFields = (ast: AST.AST): ReadonlyArray<AST.PropertySignature> =>
  fieldsOf(ast).map((p) => new AST.PropertySignature(p.name, fieldFromText(p.type), p.isOptional, true, describedAsText(p)))

/**
 * A struct decoded from its fields' text forms, defaults and all; `leaveOut` names fields it does not take.
 * A struct with defaults is a transformation: the fields are left out of what it decodes to as well, or
 * the decoded side would still ask for them (`--url` with `--file`).
 */
export const textStruct = (ast: AST.AST, leaveOut: ReadonlyArray<PropertyKey> = []): AST.AST =>
  AST.isTransformation(ast)
    ? new AST.Transformation(textStruct(ast.from, leaveOut), withoutFields(ast.to, leaveOut), ast.transformation, ast.annotations)
    : new AST.TypeLiteral(textFields(ast).filter((p) => !leaveOut.includes(p.name)), [])

const withoutFields = (ast: AST.AST, leaveOut: ReadonlyArray<PropertyKey>): AST.AST =>
  leaveOut.length === 0 || !AST.isTypeLiteral(ast)
    ? ast
    : new AST.TypeLiteral(ast.propertySignatures.filter((p) => !leaveOut.includes(p.name)), ast.indexSignatures, ast.annotations)
