// POST /v1/ai-videos (tool create_ai_video) and POST /v1/ai-videos/v3 (tool create_ai_video_v3): a
// script becomes a narrated, illustrated video. Both record the video with its project and queue its
// generation in one transaction, then answer at once with status `processing`. V2 pictures come from
// the server's image generator in its default look; V3 draws them in an art style the caller picks.
import { Clock, Effect, Schema } from "effect"
import { ART_STYLES } from "../../../domain/art-styles.ts"
import { InvalidInput, PlanForbids } from "../../../domain/errors.ts"
import { AspectRatio, type GeneratedProject } from "../../../domain/generated-project.ts"
import { canRender } from "../../../domain/plans.ts"
import { JobQueue } from "../../../domain/ports/job-queue.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { RenderOptions, Script, TemplateId, WebhookUrl } from "../../../domain/rules.ts"
import { ASPECT_SIZES } from "../../../domain/timeline.ts"
import { newGeneratedVideo } from "../../../domain/video.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { GENERATE_AI_VIDEO } from "../../kernel/job-kinds.ts"
import { editorUrl } from "../../kernel/links.ts"
import { operation } from "../../kernel/operation.ts"
import { newId, randomToken } from "../../kernel/secrets.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { CreatedVideo } from "../caption-video/create-caption-video.ts"
import { resolveTemplate } from "../caption-templates/resolve-template.ts"
import { chooseVoice } from "../speech/voices.ts"

/** V2 draws in this style: the server's default look. */
export const DEFAULT_ART_STYLE_ID = ART_STYLES[0]!.id

const AiVideoFields = {
  script: Script,
  voiceId: Schema.optional(Schema.String.annotations({ description: "A voice from GET /v1/voices; default the first one." })),
  templateId: Schema.optional(TemplateId),
  aspectRatio: Schema.optional(AspectRatio),
  render: Schema.optional(RenderOptions).annotations({
    description:
      "Export the mp4 as soon as the video is generated. `{}` takes the defaults. Left out: the video completes as an editable project without an mp4; call the render operation later."
  }),
  webhookUrl: Schema.optional(WebhookUrl)
}

interface AiVideoRequest {
  readonly script: string
  readonly voiceId?: string | undefined
  readonly templateId?: number | undefined
  readonly aspectRatio?: AspectRatio | undefined
  readonly render?: RenderOptions | undefined
  readonly webhookUrl?: string | undefined
  readonly artStyleId: string
}

const checkArtStyle = (id: string) =>
  ART_STYLES.some((s) => s.id === id)
    ? Effect.void
    : new InvalidInput({
      field: "artStyleId",
      message: `unknown art style ${JSON.stringify(id)}; GET /v1/art-styles lists them (${ART_STYLES.map((s) => s.id).join(", ")})`
    })

const startAiVideo = (request: AiVideoRequest) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const { voice } = yield* chooseVoice(request.voiceId)
    yield* checkArtStyle(request.artStyleId)
    const template = yield* resolveTemplate(workspace, request.templateId)
    if (request.render !== undefined && !canRender(workspace.plan, workspace.byok)) {
      return yield* new PlanForbids({
        plan: workspace.plan,
        message: "Rendering an mp4 needs a paid plan (or BYOK). Leave out `render` to get an editable project."
      })
    }
    const { baseUrl } = yield* ServiceConfig
    const now = yield* Clock.currentTimeMillis
    const at = new Date(now).toISOString()
    const aspectRatio = request.aspectRatio ?? "9:16"
    const video = newGeneratedVideo({
      id: newId(),
      kind: "ai",
      workspaceId: workspace.id,
      templateId: template.id,
      renderOptions: request.render ?? null,
      webhookUrl: request.webhookUrl ?? null,
      editorToken: randomToken("ed_"),
      at,
      ...ASPECT_SIZES[aspectRatio]
    })
    const project: GeneratedProject = {
      script: request.script,
      voiceId: voice.id,
      aspectRatio,
      artStyleId: request.artStyleId,
      seed: now % 1_000_000_007,
      narrationFileId: null,
      scenes: []
    }
    yield* (yield* Transactor).atomically(Effect.gen(function*() {
      const videos = yield* VideoStore
      yield* videos.insert(video)
      yield* videos.saveProject(video.id, project)
      yield* (yield* WorkspaceStore).update({ ...workspace, lastTemplateId: template.id })
      yield* (yield* JobQueue).enqueue({
        lane: "media",
        kind: GENERATE_AI_VIDEO,
        payload: { videoId: video.id },
        runAt: now,
        dedupeKey: `generate:${video.id}`
      })
    }))
    yield* Effect.logInfo("AI video created").pipe(Effect.annotateLogs({ videoId: video.id }))
    return {
      id: video.id,
      status: video.status,
      render: video.render,
      createdAt: video.createdAt,
      editorUrl: editorUrl(baseUrl, video.editorToken)
    }
  }).pipe(Effect.withSpan("createAiVideo"))

const PIPELINE =
  "The script is spoken (word times from the speech engine), cut into scenes at sentence ends, one picture is drawn per scene, " +
  "and captions follow the words. Costs 3 credits per started minute of narration; rendering is charged as usual. " +
  "Returns at once with status `processing`; poll GET /v1/videos/{id} or pass `webhookUrl`."

export const createAiVideo = operation({
  name: "createAiVideo",
  summary: "Create an AI video",
  description: `Turns a script into a narrated video with generated images (the server's image generator in its default look). ${PIPELINE}`,
  path: Schema.Struct({}),
  payload: Schema.Struct(AiVideoFields),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/ai-videos" },
  access: "workspace",
  tool: "create_ai_video",
  cli: "ai",
  idempotent: true,
  handle: (input) => startAiVideo({ ...input, artStyleId: DEFAULT_ART_STYLE_ID })
})

export const createAiVideoV3 = operation({
  name: "createAiVideoV3",
  summary: "Create an AI video (V3, art styles)",
  description: `Turns a script into a narrated video drawn in one of the art styles (GET /v1/art-styles). ${PIPELINE}`,
  path: Schema.Struct({}),
  payload: Schema.Struct({
    ...AiVideoFields,
    artStyleId: Schema.optional(Schema.String.annotations({
      description: `An art style from GET /v1/art-styles; default \`${DEFAULT_ART_STYLE_ID}\`.`
    }))
  }),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/ai-videos/v3" },
  access: "workspace",
  tool: "create_ai_video_v3",
  cli: "ai-v3",
  idempotent: true,
  handle: ({ artStyleId, ...input }) => startAiVideo({ ...input, artStyleId: artStyleId ?? DEFAULT_ART_STYLE_ID })
})
