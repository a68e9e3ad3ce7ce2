// POST /v1/caption-videos, tool create_caption_video: records the video and queues its
// generation in one transaction, then answers at once with status `processing`.
import { Clock, Effect, Schema } from "effect"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { JobQueue } from "../../../domain/ports/job-queue.ts"
import type { MediaEngine } from "../../../domain/ports/media-engine.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { checkSource, RenderOptions, SOURCE_LIMITS, SourceUrl, TemplateId, WebhookUrl } from "../../../domain/rules.ts"
import { newCaptionVideo, Status, VideoId } from "../../../domain/video.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { enqueue } from "../../kernel/job.ts"
import { GenerateCaptions, generationJobKey } from "../../kernel/job-catalogue.ts"
import { editorUrl } from "../../kernel/links.ts"
import { operation } from "../../kernel/operation.ts"
import { newId, randomToken } from "../../kernel/secrets.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { resolveTemplate } from "../caption-templates/parts/resolve-template.ts"
import { requireRenderAllowed } from "../render/parts/require-render-allowed.ts"
import { requireSource } from "../../shared/media/require-source.ts"
import { storeFile } from "../../shared/media/store-file.ts"

export const CaptionVideoFields = {
  templateId: Schema.optional(TemplateId),
  render: Schema.optional(RenderOptions).annotations({
    description:
      "Export the mp4 as soon as captions are timed. `{}` takes the defaults. Left out: the video completes as an editable project without an mp4; call the render operation later."
  }),
  webhookUrl: Schema.optional(WebhookUrl)
}

export const CreatedVideo = Schema.Struct({
  id: VideoId,
  status: Status,
  render: Schema.Boolean.annotations({ description: "Whether the mp4 export was requested with `render`." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." }),
  editorUrl: Schema.String.annotations({ description: "Unguessable link to the project in the editor." })
}).annotations({ identifier: "CreatedVideo", description: "The new video, processing in the background." })

export type CaptionSource =
  | { readonly _tag: "Url"; readonly url: string }
  | { readonly _tag: "Upload"; readonly path: string; readonly name: string; readonly contentType: string }

export interface CaptionVideoRequest {
  readonly source: CaptionSource
  readonly templateId?: number | undefined
  readonly render?: RenderOptions | undefined
  readonly webhookUrl?: string | undefined
}

/** Shared by the JSON operation and the HTTP-only multipart upload. */
export const startCaptionVideo = (request: CaptionVideoRequest) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const template = yield* resolveTemplate(workspace, request.templateId)
    yield* requireRenderAllowed(workspace, request.render)
    if (request.source._tag !== "Url") yield* requireSource(request.source.path, checkSource)
    const { baseUrl } = yield* ServiceConfig
    const at = new Date(yield* Clock.currentTimeMillis).toISOString()
    const source = request.source._tag === "Url"
      ? { url: request.source.url }
      : { fileId: (yield* storeFile(workspace, request.source)).id }
    const video = newCaptionVideo({
      id: newId(),
      workspaceId: workspace.id,
      templateId: template.id,
      renderOptions: request.render ?? null,
      webhookUrl: request.webhookUrl ?? null,
      editorToken: randomToken("ed_"),
      source,
      at
    })
    const tx = yield* Transactor
    yield* tx.atomically(Effect.gen(function*() {
      yield* (yield* VideoStore).insert(video)
      yield* (yield* WorkspaceStore).update({ ...workspace, lastTemplateId: template.id })
      yield* enqueue(GenerateCaptions, { videoId: video.id }, {
        runAt: Date.parse(at),
        dedupeKey: generationJobKey(video.id),
        workspaceId: video.workspaceId
      })
    }))
    yield* Effect.logInfo("caption video created").pipe(Effect.annotateLogs({ videoId: video.id }))
    return {
      id: video.id,
      status: video.status,
      render: video.render,
      createdAt: video.createdAt,
      editorUrl: editorUrl(baseUrl, video.editorToken)
    }
  }).pipe(Effect.withSpan("createCaptionVideo"))

export type CaptionVideoServices = BlobStore | FileStore | JobQueue | MediaEngine | Transactor | VideoStore | WorkspaceStore

export const createCaptionVideo = operation({
  name: "createCaptionVideo",
  summary: "Caption a video",
  description:
    "Transcribes a spoken video and burns captions in. Send JSON with `url`, or multipart form data with `file` (text fields: `templateId` as a number string, `render` as a JSON string). Exactly one of file and url. " +
    `${SOURCE_LIMITS}: an uploaded file is checked at once (a 400 naming \`file\`), one at a URL once fetched (the video fails). ` +
    "Returns at once with status `processing`; poll GET /v1/videos/{id} or pass `webhookUrl`.",
  path: Schema.Struct({}),
  payload: Schema.Struct({ url: SourceUrl, ...CaptionVideoFields }),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/caption-videos" },
  access: "workspace",
  tool: "create_caption_video",
  cli: "caption",
  idempotent: true,
  handle: ({ url, ...rest }) => startCaptionVideo({ source: { _tag: "Url", url }, ...rest })
})
