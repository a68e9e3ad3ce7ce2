// POST /v1/files, tool upload_file: stores a picture or clip from a URL (or, over HTTP, a multipart
// `file`) and answers its key at once. Synchronous and free: no credits, no webhook event (`webhookUrl`
// is only validated).
import { Effect, Option, Schema } from "effect"
import { InvalidInput } from "../../../domain/errors.ts"
import { MAX_UPLOAD_BYTES } from "../../../domain/media-kinds.ts"
import { SourceFetcher } from "../../../domain/ports/source-fetcher.ts"
import { SourceUrl, WebhookUrl } from "../../../domain/rules.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { operation } from "../../kernel/operation.ts"
import { withScratchDir } from "../../shared/media/scratch.ts"
import { FileObject } from "./parts/file-object.ts"
import { storeUpload } from "./parts/store-upload.ts"

const DOWNLOAD_TIMEOUT_MS = 10 * 60 * 1000

const nameOf = (url: string): string =>
  Option.getOrElse(Option.liftThrowable(() => decodeURIComponent(new URL(url).pathname.split("/").pop() ?? ""))(), () => "") || "file"

export const uploadFile = operation({
  name: "uploadFile",
  summary: "Upload a file",
  description:
    "Stores an image (PNG, JPEG, WebP; at most 25 MB), gif (50 MB) or video (MP4, MOV, WebM; 500 MB) from a URL and returns its `key`, usable as a visual or as gameplay footage. " +
    "The content decides the kind, not the name. Free of credits; synchronous, so no webhook event is sent.",
  path: Schema.Struct({}),
  payload: Schema.Struct({ url: SourceUrl, webhookUrl: Schema.optional(WebhookUrl) }),
  output: FileObject,
  errors: ["InvalidInput"],
  http: { method: "POST", path: "/v1/files" },
  access: "workspace",
  tool: "upload_file",
  openWorld: true,
  cli: "upload",
  idempotent: true,
  handle: ({ url }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      return yield* withScratchDir("upload", (dir) =>
        Effect.gen(function*() {
          const path = `${dir}/download`
          yield* (yield* SourceFetcher).download(url, path, { maxBytes: MAX_UPLOAD_BYTES.video, timeoutMs: DOWNLOAD_TIMEOUT_MS }).pipe(
            Effect.mapError((e) => new InvalidInput({ field: "url", message: e.message }))
          )
          return yield* storeUpload(workspace, { path, name: nameOf(url) }, "url")
        }))
    }),
  upload: (file) => Effect.flatMap(CurrentWorkspace, (workspace) => storeUpload(workspace, file, "file"))
})
