// The HTTP contract, derived from the operation catalogue: one endpoint per operation, plus the
// HTTP-only ways in (multipart uploads of a caption source or a file, captions as .srt/.vtt files).
// Kept apart from its handlers so a typed client and the docs can import it alone.
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { IntegerFromText } from "../../domain/integer-text.ts"
import { RenderOptions, TemplateId, WebhookUrl } from "../../domain/rules.ts"
import { PixelBox, RemovalTarget } from "../../domain/text-regions.ts"
import { VideoId } from "../../domain/video.ts"
import { catalogue } from "../../src/catalogue.ts"
import type { AnyOperation } from "../../src/kernel/operation.ts"
import { createCaptionVideo } from "../../src/ops/caption-video/create-caption-video.ts"
import { createCaptionRemoval } from "../../src/ops/caption-removal/create-caption-removal.ts"
import { uploadFile } from "../../src/ops/files/upload-file.ts"
import { ApiErrors, STATUS_OF } from "./api-error.ts"
import { AdminAuthentication, Authentication } from "./authentication.ts"

/** Multipart form of POST /v1/caption-videos: every field is text, `render` is a JSON string. */
export const CaptionVideoUpload = HttpApiSchema.Multipart(
  Schema.Struct({
    file: Multipart.SingleFileSchema.annotations({ description: "The video. At most 500 MB and 2 hours." }),
    templateId: Schema.optional(Schema.compose(IntegerFromText, TemplateId)),
    render: Schema.optional(Schema.parseJson(RenderOptions)).annotations({
      description: "The render fields as a JSON string, e.g. `{\"frameRate\":60}`; `{}` takes the defaults."
    }),
    webhookUrl: Schema.optional(WebhookUrl),
    url: Schema.optional(Schema.String).annotations({ description: "Not allowed with `file`: send one of them." })
  })
).annotations({ identifier: "CaptionVideoUpload" })

/** Multipart form of POST /v1/files. */
export const FileUpload = HttpApiSchema.Multipart(
  Schema.Struct({
    file: Multipart.SingleFileSchema.annotations({ description: "The image, gif or video." }),
    webhookUrl: Schema.optional(WebhookUrl),
    url: Schema.optional(Schema.String).annotations({ description: "Not allowed with `file`: send one of them." })
  })
).annotations({ identifier: "FileUpload" })

/** Multipart form of POST /v1/caption-remover: `region` is a JSON string. */
export const CaptionRemovalUpload = HttpApiSchema.Multipart(
  Schema.Struct({
    file: Multipart.SingleFileSchema.annotations({ description: "The video. At most 500 MB and 2 hours." }),
    target: Schema.optional(RemovalTarget),
    region: Schema.optional(Schema.parseJson(PixelBox)).annotations({
      description: "The rectangle to search as a JSON string, e.g. `{\"x\":0,\"y\":1400,\"width\":1080,\"height\":400}`."
    }),
    webhookUrl: Schema.optional(WebhookUrl),
    url: Schema.optional(Schema.String).annotations({ description: "Not allowed with `file`: send one of them." })
  })
).annotations({ identifier: "CaptionRemovalUpload" })

/** The operations HTTP also takes as a multipart upload, with the form each takes. */
const UPLOAD_FORMS: Readonly<Record<string, Schema.Schema.Any>> = {
  [createCaptionVideo.name]: CaptionVideoUpload,
  [createCaptionRemoval.name]: CaptionRemovalUpload,
  [uploadFile.name]: FileUpload
}

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
const httpPayload = (op: AnyOperation): Schema.Schema.Any => {
  const form = UPLOAD_FORMS[op.name]
  return (form === undefined ? op.payload : Schema.Union(form, op.payload)).annotations({
    parseOptions: { onExcessProperty: "error" }
  })
}

const endpointOf = (op: AnyOperation) => {
  // The catalogue is heterogeneous; endpoint types are checked where handlers are bound by name.
  let endpoint: any = HttpApiEndpoint.make(op.http.method)(op.name, op.http.path)
  if (Object.keys(op.path.fields).length > 0) endpoint = endpoint.setPath(op.path)
  if (Object.keys(op.payload.fields).length > 0) endpoint = endpoint.setPayload(httpPayload(op))
  if (op.idempotent) endpoint = endpoint.setHeaders(IdempotencyHeaders)
  endpoint = endpoint.addSuccess(op.output).addError(ApiErrors[400])
  for (const tag of op.errors as ReadonlyArray<keyof typeof STATUS_OF>) endpoint = endpoint.addError(ApiErrors[STATUS_OF[tag]])
  if (UPLOAD_FORMS[op.name] !== undefined) endpoint = endpoint.addError(ApiErrors[413])
  return endpoint.annotate(OpenApi.Summary, op.summary).annotate(OpenApi.Description, op.description) as HttpApiEndpoint.HttpApiEndpoint.Any
}

const captionFile = (name: string, extension: "srt" | "vtt", contentType: string) =>
  HttpApiEndpoint.get(name, `/v1/videos/:id/captions.${extension}`)
    .setPath(Schema.Struct({ id: VideoId }))
    .addSuccess(HttpApiSchema.Text({ contentType }))
    .addError(ApiErrors[404])
    .addError(ApiErrors[409])
    .annotate(OpenApi.Summary, `Get a video's captions as ${extension.toUpperCase()}`)

export const captionSrt = captionFile("getVideoCaptionsSrt", "srt", "application/x-subrip")
export const captionVtt = captionFile("getVideoCaptionsVtt", "vtt", "text/vtt")

const groupOf = <const Name extends string>(name: Name, access: AnyOperation["access"]) =>
  catalogue
    .filter((op) => op.access === access)
    .reduce(
      (group, op) => group.add(endpointOf(op as AnyOperation)),
      HttpApiGroup.make(name) as unknown as HttpApiGroup.HttpApiGroup<Name, any>
    )

export class VideosGroup extends groupOf("v1", "workspace")
  .add(captionSrt)
  .add(captionVtt)
  .addError(ApiErrors[429])
  .middleware(Authentication)
  .annotate(OpenApi.Title, "API")
{}

export class AdminGroup extends groupOf("admin", "admin")
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
  .annotate(
    OpenApi.Description,
    "Turns spoken videos into captioned mp4s, charges credits, reports progress through the video record and webhooks. Errors share one shape: `{\"error\":{\"code\",\"message\",\"details\"}}`."
  )
{}

export type CaptionVideoPayload =
  | Schema.Schema.Type<typeof createCaptionVideo.payload>
  | Schema.Schema.Type<typeof CaptionVideoUpload>
