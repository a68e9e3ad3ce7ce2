// A Schema as JSON Schema should describe it, for every surface that writes one (MCP tools, OpenAPI):
// the same decoding, with annotations fit for a reader.
import { Option, Schema, SchemaAST as AST } from "effect"

/**
 * Effect writes a filter it cannot express in JSON Schema (`isHttpsUrl`) as the type it refines, and
 * drops its annotations with it: `WebhookUrl` would be described as "a string at most 1024 character(s)
 * long". An empty `jsonSchema` annotation on such a filter keeps its description and title, adding no
 * keyword. Effect's own filters and transformations word themselves for their code rather than for a
 * reader: titles after the code (`int`, `maxLength(4096)`) on filters with a schema id, and descriptions
 * in lower case after an article ("a non-negative number", "a string that will be trimmed"), where every
 * description of ours is a sentence. Both only repeat the keywords beside them, so they go.
 */
const describedRefinements = (ast: AST.AST): AST.AST => {
  switch (ast._tag) {
    case "Refinement": {
      const annotations = withoutBuiltInWording(ast)
      const own = AST.getJSONSchemaAnnotation(ast)
      const description = annotations[AST.DescriptionAnnotationId]
      // A filter's own JSON Schema (an integer parameter's) replaces its description: carry it over.
      const jsonSchema = Option.isNone(own) ? {} : description === undefined ? own.value : { description, ...own.value }
      const described = { ...annotations, [AST.JSONSchemaAnnotationId]: jsonSchema }
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
      return new AST.Transformation(
        describedRefinements(ast.from),
        describedRefinements(ast.to),
        ast.transformation,
        withSurrogate(ast, withoutBuiltInWording(ast))
      )
    case "Declaration":
      return new AST.Declaration(ast.typeParameters, ast.decodeUnknown, ast.encodeUnknown, withSurrogate(ast))
    case "Suspend":
      return new AST.Suspend(() => describedRefinements(ast.f()), ast.annotations)
    case "StringKeyword":
      // The encoded side of `Trim` or `Lowercase` says what decoding will do to it.
      return new AST.StringKeyword(withoutBuiltInWording(ast))
    default:
      return ast
  }
}

const BUILT_IN_DESCRIPTION = /^an? [a-z]/

const withoutBuiltInWording = (ast: AST.AST): AST.Annotations => {
  const { [AST.TitleAnnotationId]: title, [AST.DescriptionAnnotationId]: description, ...rest } = ast.annotations
  return {
    ...rest,
    ...(title === undefined || Option.isSome(AST.getSchemaIdAnnotation(ast)) ? {} : { [AST.TitleAnnotationId]: title }),
    ...(typeof description !== "string" || BUILT_IN_DESCRIPTION.test(description) ? {} : { [AST.DescriptionAnnotationId]: description })
  }
}

/** A Schema.Class is written from the struct its surrogate annotation holds, so that struct is rewritten too. */
const withSurrogate = (ast: AST.AST, annotations: AST.Annotations = ast.annotations): AST.Annotations => {
  const surrogate = AST.getSurrogateAnnotation(ast)
  return Option.isNone(surrogate) ? annotations : { ...annotations, [AST.SurrogateAnnotationId]: describedRefinements(surrogate.value) }
}

/** `schema` with every refinement described as above; it decodes and encodes exactly as `schema` does. */
export const describedSchema = <A, I>(schema: Schema.Schema<A, I>): Schema.Schema<A, I> => Schema.make(describedRefinements(schema.ast))
