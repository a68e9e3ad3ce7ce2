// The multipart form of an operation that takes a file in place of its `url` (declared by its
// `upload`), derived from the operation's payload: every other field travels as text
// (src/kernel/text-input.ts), decoded by the field's own Schema after that.
import { HttpApiSchema, Multipart } from "@effect/platform"
import { type Brand, Schema, SchemaAST as AST } from "effect"
import type { AnyOperation } from "../../src/kernel/operation.ts"
import { fieldsOf, textFields } from "../../src/kernel/text-input.ts"

/** What a handler receives for a form: the stored file and the other fields, decoded. */
export type UploadFormFields = Brand.Brand<HttpApiSchema.MultipartTypeId> & {
  readonly file: Multipart.PersistedFile
  readonly url?: string | undefined
}

const pascal = (name: string): string => `${name.charAt(0).toUpperCase()}${name.slice(1)}`

/**
 * What the form adds to the operation's description, which speaks of `url` only: the form is HTTP's
 * alone (an MCP tool or the CLI's `--file` has no use for it).
 */
export const UPLOAD_NOTE =
  "Over HTTP, multipart form data with the file as its `file` part may be sent instead of JSON with `url` (one of the " +
  "two, not both); the other fields are text parts, objects and lists as JSON. An uploaded file is checked at once (a 400 naming `file`)."

/** The form, or null when the operation takes no file. */
export const uploadForm = (op: AnyOperation): Schema.Schema.AnyNoContext | null => {
  if (op.upload === undefined) return null
  const asText = textFields(op.payload.ast).filter((p) => p.name !== "url")
  const form = Schema.Struct({
    // One file part, written as OpenAPI says an upload is: the platform would describe the decoded record.
    file: Multipart.SingleFileSchema.annotations({
      jsonSchema: { type: "string", format: "binary", contentMediaType: "application/octet-stream", description: "The file, in place of `url`." }
    }),
    url: Schema.optional(Schema.String).annotations({ description: "Not allowed with `file`: send one of them." })
  })
  const withText = new AST.TypeLiteral([...fieldsOf(form.ast), ...asText], [])
  return HttpApiSchema.Multipart(Schema.make<UploadFormFields, unknown>(withText)).annotations({ identifier: `${pascal(op.name)}Upload` })
}
