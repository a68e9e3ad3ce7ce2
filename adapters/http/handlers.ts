// Binds each endpoint of the derived API to its operation: path and payload become the
// operation's input (a multipart file stands in for `url`), Idempotency-Key wraps creates, a create's
// answer carries its record's URL as `Location`, domain errors become statuses.
import { HttpApiBuilder, type HttpApiGroup, HttpApp, HttpServerResponse } from "@effect/platform"
import { Effect, type Layer } from "effect"
import { stat } from "node:fs/promises"
import { InvalidInput } from "../../domain/errors.ts"
import { adminOperations, type CatalogueServices, workspaceOperations } from "../../src/catalogue.ts"
import type { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { withIdempotency } from "../../src/kernel/idempotency.ts"
import type { AnyOperation, RecordRead, UploadedFile } from "../../src/kernel/operation.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { videoCaptions } from "../../src/ops/videos/get-video-captions.ts"
import { type ApiError, toApiError } from "./api-error.ts"
import { ReelwrightApi } from "./api.ts"
import type { AdminAuthentication, Authentication } from "./authentication.ts"
import type { UploadFormFields } from "./upload-form.ts"

type OperationServices = CatalogueServices | CurrentWorkspace

/** What every endpoint of the catalogue hands its handler, whichever parts it declares. */
interface EndpointRequest {
  readonly request?: unknown
  readonly path?: Readonly<Record<string, unknown>>
  readonly payload?: Readonly<Record<string, unknown>> | UploadFormFields
  readonly headers?: { readonly "idempotency-key"?: string | undefined }
}

const isUpload = (payload: EndpointRequest["payload"]): payload is UploadFormFields => payload !== undefined && "file" in payload

/**
 * A multipart request: the uploaded file stands in for `url`, then it is the same operation. Its
 * fingerprint (for Idempotency-Key) describes the file by name, type and size.
 */
const uploadRun = (
  form: UploadFormFields,
  upload: NonNullable<AnyOperation<OperationServices>["upload"]>
) =>
  Effect.gen(function*() {
    const { file, url, ...fields } = form
    if (url !== undefined) {
      return yield* new InvalidInput({ field: "url", message: "send either a `file` or a `url`, not both" })
    }
    const size = yield* Effect.promise(() => stat(file.path).then((s) => s.size))
    // Only these three: the platform's file object carries a `_tag` of its own.
    const uploaded: UploadedFile = { path: file.path, name: file.name, contentType: file.contentType }
    return { fingerprint: { file: { name: file.name, contentType: file.contentType, size }, ...fields }, run: upload(uploaded, fields) }
  })

/** The declaration promises a string `id` where a create names its `readBack`; this narrows the erased answer. */
const idOf = (output: unknown): string | undefined =>
  typeof output === "object" && output !== null && "id" in output && typeof output.id === "string" ? output.id : undefined

/**
 * The new record's URL as the answer's `Location` (absolute, as the record's own links are): its read's
 * route with the id of the answer, so a replayed answer names the same record. Set as the answer is written.
 */
const locate = (read: RecordRead, output: unknown) =>
  Effect.gen(function*() {
    const id = idOf(output)
    if (id === undefined) return
    const { baseUrl } = yield* ServiceConfig
    const location = `${baseUrl}${read.http.path.replace(/:id\b/, encodeURIComponent(id))}`
    yield* HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "location", location)))
  })

const handlerOf = (op: AnyOperation<OperationServices>) => (request: EndpointRequest) =>
  Effect.gen(function*() {
    const { payload } = request
    const upload = op.upload?.bind(op)
    const input = { ...request.path, ...payload }
    const { fingerprint, run } = upload !== undefined && isUpload(payload)
      ? yield* uploadRun(payload, upload)
      : { fingerprint: input, run: op.handle(input) }
    const key = request.headers?.["idempotency-key"]
    const output = yield* op.idempotent && key !== undefined
      ? withIdempotency(key, op.name, fingerprint, op.output, run)
      : run
    if (op.readBack !== undefined) yield* locate(op.readBack, output)
    return output
  }).pipe(Effect.mapError(toApiError))

/**
 * The step of the handlers' builder that `bindAll` takes, by name, as a loop can hold it. The group's
 * own type (from api.ts) is what the result is checked against when it is returned.
 */
interface HandlerSteps {
  handle(name: string, handler: ReturnType<typeof handlerOf>): HandlerSteps
}

const bindAll = (handlers: HandlerSteps, operations: ReadonlyArray<AnyOperation<OperationServices>>) =>
  operations.reduce((bound, op) => bound.handle(op.name, handlerOf(op)), handlers)

/**
 * A group's handlers with every endpoint bound, as `HttpApiBuilder.group` wants them back: needing the
 * operations' services but those its middleware provides (the workspace, from authentication). Admin
 * operations never read the current workspace (their middleware provides none), so it is left out.
 */
type AllBound<H> = H extends HttpApiBuilder.Handlers<infer E, infer P, infer R, infer _Endpoints>
  ? HttpApiBuilder.Handlers<E, P, R | Exclude<OperationServices, CurrentWorkspace>, never>
  : never

type GroupLayer<Name extends string, Middleware> = Layer.Layer<
  HttpApiGroup.ApiGroup<"reelwright", Name>,
  never,
  CatalogueServices | Middleware
>

const captionsOf = (format: "srt" | "vtt") => ({ path }: { readonly path: { readonly id: string } }): Effect.Effect<string, ApiError, OperationServices> =>
  videoCaptions(path.id).pipe(Effect.map((captions) => captions[format]), Effect.mapError(toApiError))

export const VideosGroupLive: GroupLayer<"v1", Authentication> = HttpApiBuilder.group(ReelwrightApi, "v1", (handlers) => {
  const withFiles = handlers.handle("getVideoCaptionsSrt", captionsOf("srt")).handle("getVideoCaptionsVtt", captionsOf("vtt"))
  return bindAll(withFiles, workspaceOperations) as AllBound<typeof withFiles>
})

export const AdminGroupLive: GroupLayer<"admin", AdminAuthentication> = HttpApiBuilder.group(
  ReelwrightApi,
  "admin",
  (handlers) => bindAll(handlers, adminOperations) as AllBound<typeof handlers>
)
