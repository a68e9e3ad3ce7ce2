// Creating a generated video (AI, gameplay, fake-text, quiz): checks what every such create takes (voice,
// caption template, whether the plan may render), then records the video with its project and queues
// its generation in one transaction, and answers at once with status `processing`.
import { Clock, Effect, Schema } from "effect"
import type { AspectRatio, GeneratedProject } from "../../../../domain/generated-project.ts"
import { Transactor } from "../../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../../domain/ports/workspace-store.ts"
import { RenderOptions, Script, TemplateId, WebhookUrl } from "../../../../domain/rules.ts"
import { ASPECT_SIZES } from "../../../../domain/timeline.ts"
import { newGeneratedVideo, type VideoKind } from "../../../../domain/video.ts"
import { CurrentWorkspace } from "../../../kernel/current-workspace.ts"
import { enqueue } from "../../../kernel/job.ts"
import { GenerateVideo, generationJobKey } from "../../../kernel/job-catalogue.ts"
import { editorUrl } from "../../../kernel/links.ts"
import { newId, randomToken } from "../../../kernel/secrets.ts"
import { ServiceConfig } from "../../../kernel/service-config.ts"
import { resolveTemplate } from "../../caption-templates/parts/resolve-template.ts"
import { requireRenderAllowed } from "../../render/parts/require-render-allowed.ts"
import { chooseVoice } from "../../speech/parts/voices.ts"

/** The fields every generated video's create takes: its captions' look, its export, its webhook. */
export const GeneratedVideoFields = {
  templateId: Schema.optional(TemplateId),
  render: Schema.optional(RenderOptions).annotations({
    description:
      "Export the mp4 as soon as the video is generated. `{}` takes the defaults. Left out: the video completes as an editable project without an mp4; call the render operation later."
  }),
  webhookUrl: Schema.optional(WebhookUrl)
}

/** The fields every create from a script takes. */
export const ScriptVideoFields = {
  script: Script,
  voiceId: Schema.optional(Schema.String.annotations({ description: "A voice from GET /v1/voices; default the first one." })),
  ...GeneratedVideoFields
}

export interface ScriptVideoRequest {
  readonly script: string
  readonly voiceId?: string | undefined
  readonly templateId?: number | undefined
  readonly render?: RenderOptions | undefined
  readonly webhookUrl?: string | undefined
}

export const startGeneratedVideo = (
  request: ScriptVideoRequest,
  shape: {
    readonly kind: Exclude<VideoKind, "caption">
    readonly aspectRatio: AspectRatio
    readonly visuals: GeneratedProject["visuals"]
  }
) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const { voice } = yield* chooseVoice(request.voiceId)
    const template = yield* resolveTemplate(workspace, request.templateId)
    yield* requireRenderAllowed(workspace, request.render)
    const { baseUrl } = yield* ServiceConfig
    const now = yield* Clock.currentTimeMillis
    const at = new Date(now).toISOString()
    const video = newGeneratedVideo({
      id: newId(),
      kind: shape.kind,
      workspaceId: workspace.id,
      templateId: template.id,
      renderOptions: request.render ?? null,
      webhookUrl: request.webhookUrl ?? null,
      editorToken: randomToken("ed_"),
      at,
      ...ASPECT_SIZES[shape.aspectRatio]
    })
    const project: GeneratedProject = {
      script: request.script,
      voiceId: voice.id,
      aspectRatio: shape.aspectRatio,
      seed: now % 1_000_000_007,
      narrationFileId: null,
      visuals: shape.visuals
    }
    yield* (yield* Transactor).atomically(Effect.gen(function*() {
      const videos = yield* VideoStore
      yield* videos.insert(video)
      yield* videos.saveProject(video.id, project)
      yield* (yield* WorkspaceStore).update({ ...workspace, lastTemplateId: template.id })
      yield* enqueue(GenerateVideo, { videoId: video.id }, { runAt: now, dedupeKey: generationJobKey(video.id), workspaceId: video.workspaceId })
    }))
    yield* Effect.logInfo(`${shape.kind} video created`).pipe(Effect.annotateLogs({ videoId: video.id }))
    return {
      id: video.id,
      status: video.status,
      render: video.render,
      createdAt: video.createdAt,
      editorUrl: editorUrl(baseUrl, video.editorToken)
    }
  }).pipe(Effect.withSpan("startGeneratedVideo", { attributes: { kind: shape.kind } }))
