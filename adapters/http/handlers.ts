// Binds each endpoint of the derived API to its operation: path and payload become the
// operation's input (a multipart file stands in for `url`), Idempotency-Key wraps creates, domain
// errors become statuses.
import { HttpApiBuilder, type HttpApiGroup } from "@effect/platform"
import { Effect, type Layer } from "effect"
import { stat } from "node:fs/promises"
import { InvalidInput } from "../../domain/errors.ts"
import { catalogue, type CatalogueServices } from "../../src/catalogue.ts"
import { withIdempotency } from "../../src/kernel/idempotency.ts"
import type { AnyOperation } from "../../src/kernel/operation.ts"
import { type CaptionVideoRequest, createCaptionVideo, startCaptionVideo } from "../../src/ops/caption-video/create-caption-video.ts"
import { storeUpload } from "../../src/ops/files/parts/store-upload.ts"
import {
  type CaptionRemovalRequest,
  createCaptionRemoval,
  startCaptionRemoval
} from "../../src/ops/caption-removal/create-caption-removal.ts"
import { uploadFile } from "../../src/ops/files/upload-file.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { videoCaptions } from "../../src/ops/videos/get-video-captions.ts"
import { toApiError } from "./api-error.ts"
import { ReelwrightApi } from "./api.ts"
import type { AdminAuthentication, Authentication } from "./authentication.ts"

interface EndpointRequest {
  readonly path?: Record<string, unknown>
  readonly payload?: Record<string, unknown>
  readonly headers?: { readonly "idempotency-key"?: string | undefined }
}

interface UploadedFile {
  readonly path: string
  readonly name: string
  readonly contentType: string
}

/**
 * A multipart request: the uploaded file stands in for `url`, then it is the same operation. Its
 * fingerprint (for Idempotency-Key) describes the file by name, type and size.
 */
const uploadRun = (
  payload: Record<string, unknown>,
  start: (file: UploadedFile, fields: Record<string, unknown>) => Effect.Effect<unknown, any, any>
) =>
  Effect.gen(function*() {
    const { file, url, ...fields } = payload as { file: UploadedFile; url?: string }
    if (url !== undefined) {
      return yield* new InvalidInput({ field: "url", message: "send either a `file` or a `url`, not both" })
    }
    const size = yield* Effect.promise(() => stat(file.path).then((s) => s.size))
    // Only these three: the platform's file object carries a `_tag` of its own.
    const uploaded: UploadedFile = { path: file.path, name: file.name, contentType: file.contentType }
    return { fingerprint: { file: { name: file.name, contentType: file.contentType, size }, ...fields }, run: start(uploaded, fields) }
  })

/** The operations that also take a multipart upload, and how each starts from the uploaded file. */
const UPLOADS: Readonly<Record<string, (file: UploadedFile, fields: Record<string, unknown>) => Effect.Effect<unknown, any, any>>> = {
  [createCaptionVideo.name]: (file, fields) =>
    startCaptionVideo({ source: { _tag: "Upload", ...file }, ...(fields as Omit<CaptionVideoRequest, "source">) }),
  [createCaptionRemoval.name]: (file, fields) =>
    startCaptionRemoval({ source: { _tag: "Upload", ...file }, ...(fields as Omit<CaptionRemovalRequest, "source">) }),
  [uploadFile.name]: (file) =>
    Effect.flatMap(CurrentWorkspace, (workspace) => storeUpload(workspace, { path: file.path, name: file.name }, "file"))
}

const handlerOf = (op: AnyOperation) => (request: EndpointRequest) =>
  Effect.gen(function*() {
    const input = { ...request.path, ...request.payload }
    const upload = UPLOADS[op.name]
    const { fingerprint, run } = upload !== undefined && request.payload !== undefined && "file" in request.payload
      ? yield* uploadRun(request.payload, upload)
      : { fingerprint: input, run: op.handle(input) as Effect.Effect<unknown, any, any> }
    const key = request.headers?.["idempotency-key"]
    return yield* op.idempotent && key !== undefined
      ? withIdempotency(key, op.name, fingerprint, op.output, run)
      : run
  }).pipe(Effect.mapError(toApiError))

const bindAll = (handlers: any, access: AnyOperation["access"]) =>
  catalogue
    .filter((op) => op.access === access)
    .reduce((h, op) => h.handle(op.name, handlerOf(op as AnyOperation)), handlers)

type GroupLayer<Name extends string, Middleware> = Layer.Layer<
  HttpApiGroup.ApiGroup<"reelwright", Name>,
  never,
  CatalogueServices | Middleware
>

// The groups are bound in a loop over the catalogue, which erases their types: state them here.
export const VideosGroupLive: GroupLayer<"v1", Authentication> = HttpApiBuilder.group(ReelwrightApi, "v1", (handlers) =>
  bindAll(handlers, "workspace")
    .handle("getVideoCaptionsSrt", ({ path }: { path: { id: string } }) =>
      videoCaptions(path.id).pipe(Effect.map((c) => c.srt), Effect.mapError(toApiError)))
    .handle("getVideoCaptionsVtt", ({ path }: { path: { id: string } }) =>
      videoCaptions(path.id).pipe(Effect.map((c) => c.vtt), Effect.mapError(toApiError)))) as GroupLayer<"v1", Authentication>

export const AdminGroupLive: GroupLayer<"admin", AdminAuthentication> = HttpApiBuilder.group(
  ReelwrightApi,
  "admin",
  (handlers) => bindAll(handlers, "admin")
) as GroupLayer<"admin", AdminAuthentication>
