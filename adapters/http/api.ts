// The HTTP contract, derived from the operation catalogue: one endpoint per operation, plus the
// HTTP-only ways in (multipart uploads of a caption source or a file, captions as .srt/.vtt files).
// Kept apart from its handlers so a typed client and the docs can import it alone.
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, type HttpMethod, OpenApi } from "@effect/platform"
import { type Context, Schema } from "effect"
import { VideoId } from "../../domain/video.ts"
import { adminOperations, workspaceOperations } from "../../src/catalogue.ts"
import type { AnyOperation, Operation, RecordRead } from "../../src/kernel/operation.ts"
import { describedSchema } from "../described-schema.ts"
import { type ApiError, ApiErrors, STATUS_OF } from "./api-error.ts"
import { AdminAuthentication, Authentication } from "./authentication.ts"
import { documentedResponses, type RouteFacts } from "./documented-responses.ts"
import { finishedDocument } from "./openapi-document.ts"
import { UPLOAD_NOTE, uploadForm, type UploadFormFields } from "./upload-form.ts"

export const IdempotencyHeaders = Schema.Struct({
  "idempotency-key": Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))).annotations({
    description: "Retrying a request with the same key returns the first response; the same key with another body is a 409."
  })
})

/**
 * Payloads that HTTP accepts beyond the operation's JSON input. A field the operation does not know is
 * refused (400 naming it), as the OpenAPI document's `additionalProperties: false` says: a misspelt
 * optional field would otherwise be dropped without a word.
 */
export const httpPayload = (op: AnyOperation): Schema.Schema.AnyNoContext => {
  const form = uploadForm(op)
  return (form === null ? op.payload : Schema.Union(form, op.payload)).annotations({
    parseOptions: { onExcessProperty: "error" }
  })
}

type Fields<S> = S extends Schema.Struct<infer F> ? F : never

/** The input fields of a struct as HTTP carries them: none at all is `never` (no path, no body). */
type StructInput<S> = keyof Fields<S> extends never ? never : Schema.Schema.Type<S>

/** The endpoint an operation becomes: what HttpApiClient and the handlers see of it. */
export type EndpointOf<Op> = Op extends Operation<
  infer Name,
  infer _Path,
  infer _Payload,
  infer Out,
  infer _OutEncoded,
  infer _E,
  infer _R,
  infer Idempotent
> ? HttpApiEndpoint.HttpApiEndpoint<
    Name,
    HttpMethod.HttpMethod,
    StructInput<Op["path"]>,
    never,
    StructInput<Op["payload"]> | (Op extends { readonly upload: unknown } ? UploadFormFields : never),
    Idempotent extends true ? Schema.Schema.Type<typeof IdempotencyHeaders> : never,
    Out,
    ApiError
  >
  : never

/**
 * The builder's steps that `endpointOf` takes, each giving back an endpoint of another type: what a loop
 * can hold. `groupOf` states the type of the result from the operation (`EndpointOf`).
 */
interface EndpointSteps extends HttpApiEndpoint.HttpApiEndpoint.Any {
  setPath(schema: AnyOperation["path"]): EndpointSteps
  setPayload(schema: Schema.Schema.AnyNoContext): EndpointSteps
  setHeaders(schema: typeof IdempotencyHeaders): EndpointSteps
  addSuccess(schema: Schema.Schema.AnyNoContext): EndpointSteps
  addError(schema: (typeof ApiErrors)[keyof typeof ApiErrors]): EndpointSteps
  annotate<I, S>(tag: Context.Tag<I, S>, value: S): EndpointSteps
}

/** A create's 200 names its record's URL in `Location` (handlers.ts); the platform's OpenAPI has no field for it. */
const withLocation = (read: RecordRead) => (operation: Record<string, unknown>): Record<string, unknown> => {
  const responses = operation["responses"] as Readonly<Record<string, object>>
  const location = {
    description: `The new record's URL: GET it (${read.name}) to follow the work.`,
    schema: { type: "string", format: "uri" }
  }
  return { ...operation, responses: { ...responses, 200: { ...responses[200], headers: { Location: location } } } }
}

/** The facts of an operation's route that decide what it may answer. */
const routeFacts = (op: AnyOperation, rateLimited: boolean): RouteFacts => {
  const takesBody = op.http.method !== "GET" && op.http.method !== "DELETE" && Object.keys(op.payload.fields).length > 0
  const takesInput = op.idempotent || Object.keys(op.path.fields).length + Object.keys(op.payload.fields).length > 0
  // A reused Idempotency-Key with another body is a 409.
  const statuses = [...op.errors.map((tag) => STATUS_OF[tag]), ...(op.idempotent ? [409 as const] : [])]
  return { takesInput, takesBody, rateLimited, statuses }
}

/**
 * The endpoint of one operation, built step by step from what the operation declares. Its schemas are
 * described for readers (described-schema.ts), which changes nothing they decode.
 */
const endpointOf = (op: AnyOperation, rateLimited: boolean): HttpApiEndpoint.HttpApiEndpoint.Any => {
  let endpoint: EndpointSteps = HttpApiEndpoint.make(op.http.method)(op.name, op.http.path)
  if (Object.keys(op.path.fields).length > 0) endpoint = endpoint.setPath(describedSchema(op.path) as AnyOperation["path"])
  if (Object.keys(op.payload.fields).length > 0) endpoint = endpoint.setPayload(describedSchema(httpPayload(op)))
  if (op.idempotent) endpoint = endpoint.setHeaders(describedSchema(IdempotencyHeaders) as typeof IdempotencyHeaders)
  endpoint = endpoint.addSuccess(describedSchema(op.output)).addError(ApiErrors[400])
  for (const tag of op.errors) endpoint = endpoint.addError(ApiErrors[STATUS_OF[tag]])
  if (op.upload !== undefined) endpoint = endpoint.addError(ApiErrors[413])
  const responses = documentedResponses(routeFacts(op, rateLimited))
  const readBack = op.readBack
  const documented = readBack === undefined ? responses : (o: Record<string, unknown>) => withLocation(readBack)(responses(o))
  const description = op.upload === undefined ? op.description : `${op.description} ${UPLOAD_NOTE}`
  return endpoint
    .annotate(OpenApi.Transform, documented)
    .annotate(OpenApi.Summary, op.summary)
    .annotate(OpenApi.Description, description)
}

/**
 * A group with one endpoint per operation of the list. A fold cannot carry each endpoint's own type
 * through the loop, so the group's type is stated from the list itself (`EndpointOf` each operation),
 * the one place where types meet values; the handlers and HttpApiClient are checked against it.
 */
const groupOf = <const Name extends string, const Ops extends ReadonlyArray<AnyOperation>>(
  name: Name,
  operations: Ops,
  rateLimited: boolean
) =>
  operations.reduce<HttpApiGroup.HttpApiGroup<Name, HttpApiEndpoint.HttpApiEndpoint.Any, never>>(
    (group, op) => group.add(endpointOf(op, rateLimited)),
    HttpApiGroup.make(name)
  ) as HttpApiGroup.HttpApiGroup<Name, EndpointOf<Ops[number]>, never>

const captionFile = <const Name extends string>(name: Name, extension: "srt" | "vtt", contentType: string, example: string) =>
  HttpApiEndpoint.get(name, `/v1/videos/:id/captions.${extension}`)
    .setPath(Schema.Struct({ id: VideoId }))
    .addSuccess(HttpApiSchema.Text({ contentType }).annotations({ description: "The captions file.", examples: [example] }))
    .addError(ApiErrors[404])
    .addError(ApiErrors[409])
    .annotate(OpenApi.Summary, `Get a video's captions as ${extension.toUpperCase()}`)
    .annotate(OpenApi.Description, `The captions of a captioned video as a ${extension.toUpperCase()} file, with its edits.`)
    .annotate(
      OpenApi.Transform,
      documentedResponses({ takesInput: true, takesBody: false, rateLimited: true, statuses: [404, 409] })
    )

export const captionSrt = captionFile(
  "getVideoCaptionsSrt",
  "srt",
  "application/x-subrip",
  "1\n00:00:00,000 --> 00:00:01,400\nHello and welcome\n"
)
export const captionVtt = captionFile("getVideoCaptionsVtt", "vtt", "text/vtt", "WEBVTT\n\n00:00.000 --> 00:01.400\nHello and welcome\n")

export class VideosGroup extends groupOf("v1", workspaceOperations, true)
  .add(captionSrt)
  .add(captionVtt)
  .addError(ApiErrors[429])
  .middleware(Authentication)
  .annotate(OpenApi.Title, "API")
  .annotate(
    OpenApi.Description,
    "What a workspace does with its token: make videos, speech and screenshots, follow and edit them, and manage its account."
  )
{}

export class AdminGroup extends groupOf("admin", adminOperations, false)
  .middleware(AdminAuthentication)
  .annotate(OpenApi.Title, "Admin")
  .annotate(OpenApi.Description, "Operator-only: needs ADMIN_TOKEN, never a workspace token. The CLI calls these.")
{}

export class ReelwrightApi extends HttpApi.make("reelwright")
  .add(VideosGroup)
  .add(AdminGroup)
  .addError(ApiErrors[400])
  .addError(ApiErrors[401])
  .addError(ApiErrors[413])
  .annotate(OpenApi.Title, "Reelwright API")
  .annotate(OpenApi.Version, "1")
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/license/mit" })
  .annotate(
    OpenApi.Description,
    "Makes short videos (captioned from a spoken clip, or from a script, a chat, a quiz or gameplay), speech (mp3) and " +
      "chat screenshots (png), and wipes burned-in captions. Work is charged in credits and reports progress through its " +
      "record and webhooks; every workspace operation is also an MCP tool at `/mcp`. Errors share one shape, `Error`: " +
      "`{\"error\":{\"code\",\"message\",\"details\"}}`."
  )
  .annotate(OpenApi.Transform, finishedDocument)
{}
