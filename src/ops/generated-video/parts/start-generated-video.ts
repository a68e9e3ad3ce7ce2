// Creating a generated video (AI, gameplay, fake-text, quiz): checks what every such create takes (voice,
// caption template, whether the plan may render), then records the video with its project and queues
// its generation in one transaction (start-work.ts), and answers at once with status `processing`.
import { Clock, Effect, Schema } from "effect"
import type { AspectRatio, GeneratedProject } from "../../../../domain/generated-project.ts"
import { VideoStore } from "../../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../../domain/ports/workspace-store.ts"
import { RenderOptions, Script, TemplateId, WebhookUrl } from "../../../../domain/rules.ts"
import { ASPECT_SIZES } from "../../../../domain/timeline.ts"
import { newGeneratedVideo, type VideoKind } from "../../../../domain/video.ts"
import { GenerateVideo, generationJobKey } from "../../../kernel/job-catalogue.ts"
import { createdVideo } from "../../../kernel/present-video.ts"
import { newId, randomToken } from "../../../kernel/secrets.ts"
import { startWork } from "../../../kernel/start-work.ts"
import { videoWork } from "../../../kernel/video-work.ts"
import { CaptionLookFields, type CaptionLookRequest, saveCaptionLook } from "../../../shared/captions/caption-look-fields.ts"
import { resolveTemplate } from "../../caption-templates/parts/resolve-template.ts"
import { renderAtCreate } from "../../render/parts/render-at-create.ts"
import { chooseVoice } from "../../speech/parts/voices.ts"
import { withSpan } from "../../../kernel/spans.ts"

/** The fields every generated video's create takes: its captions' look, its export, its webhook. */
export const GeneratedVideoFields = {
  templateId: Schema.optional(TemplateId),
  render: Schema.optional(RenderOptions).annotations({
    description:
      "Export the mp4 as soon as the video is generated. `{}` takes the defaults. Left out: the video completes as an editable project without an mp4; call the render operation later."
  }),
  webhookUrl: Schema.optional(WebhookUrl),
  ...CaptionLookFields
}

/** The fields every create from a script takes. */
export const ScriptVideoFields = {
  script: Script,
  voiceId: Schema.optional(Schema.String.annotations({ description: "A voice from GET /v1/voices; default the first one." })),
  ...GeneratedVideoFields
}

export interface ScriptVideoRequest extends CaptionLookRequest {
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
  startWork(videoWork, {
    name: `${shape.kind} video`,
    check: (workspace) =>
      Effect.gen(function*() {
        const { voice } = yield* chooseVoice(request.voiceId)
        return { voice, template: yield* resolveTemplate(workspace, request.templateId) }
      }),
    render: renderAtCreate(request.render),
    prepare: (workspace, { voice, template }) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const video = newGeneratedVideo({
          id: newId(),
          kind: shape.kind,
          workspaceId: workspace.id,
          templateId: template.id,
          renderOptions: request.render ?? null,
          webhookUrl: request.webhookUrl ?? null,
          editorToken: randomToken("ed_"),
          at: new Date(now).toISOString(),
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
        const videos = yield* VideoStore
        const workspaces = yield* WorkspaceStore
        return {
          record: video,
          job: { type: GenerateVideo, payload: { videoId: video.id }, dedupeKey: generationJobKey(video.id) },
          alongside: Effect.all([
            videos.saveProject(video.id, project),
            workspaces.update({ ...workspace, lastTemplateId: template.id }),
            saveCaptionLook(video.id, request, template.style)
          ], { discard: true })
        }
      })
  }).pipe(Effect.flatMap(createdVideo), withSpan("startGeneratedVideo", { attributes: { kind: shape.kind } }))
