// POST /v1/clips, tool create_clips: a long spoken video (at a URL, or uploaded as multipart on HTTP;
// the caption video's limits) cut into short clips, each its own caption video. Its own record and its
// own work: answers at once with status `processing`, ends with a clips event; each clip video then
// reports as any video does.
import { Effect, Schema } from "effect"
import { ClipCount, clipBoundsRefusal, DEFAULT_CLIP_BOUNDS, MaxClipSeconds, MinClipSeconds } from "../../../domain/clip-selection.ts"
import { ClipsId, newClips } from "../../../domain/clips.ts"
import { InvalidInput } from "../../../domain/errors.ts"
import { Language } from "../../../domain/languages.ts"
import { CAPTION_CREDITS_PER_MINUTE, CLIP_SELECTION_CREDITS_PER_MINUTE } from "../../../domain/pricing.ts"
import { ReframeSettings } from "../../../domain/reframe.ts"
import { checkSource, RenderOptions, SOURCE_LIMITS, SourceUrl, TemplateId, WebhookUrl } from "../../../domain/rules.ts"
import { clipsWork } from "../../kernel/clips-work.ts"
import { clipsJobKey, MakeClips } from "../../kernel/job-catalogue.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { newId } from "../../kernel/secrets.ts"
import { startWork } from "../../kernel/start-work.ts"
import { recordedSource, type WorkSource } from "../../shared/media/require-source.ts"
import { requireLanguage } from "../caption-video/create-caption-video.ts"
import { resolveTemplate } from "../caption-templates/parts/resolve-template.ts"
import { renderAtCreate } from "../render/parts/render-at-create.ts"
import { getClips } from "./get-clips.ts"
import { withSpan } from "../../kernel/spans.ts"

export const CreatedClips = Schema.Struct({
  id: ClipsId.annotations({ description: "Identifier of the clips record; GET /v1/clips/{id} follows it." }),
  status: Schema.Literal("processing").annotations({ description: "Always `processing`: the work runs in the background." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." })
}).annotations({ identifier: "CreatedClips", description: "The new clips record, processing in the background." })

/** The fields besides the source, shared by the JSON operation and the multipart upload. */
export const ClipsFields = {
  count: Schema.optional(ClipCount),
  minSeconds: Schema.optional(MinClipSeconds),
  maxSeconds: Schema.optional(MaxClipSeconds),
  reframe: Schema.optional(ReframeSettings),
  templateId: Schema.optional(TemplateId),
  render: Schema.optional(RenderOptions).annotations({
    description: "Export each clip's mp4 as soon as its captions are timed. `{}` takes the defaults. Left out: each clip is an editable project without an mp4."
  }),
  webhookUrl: Schema.optional(WebhookUrl.annotations({
    description: "Receives `clips.completed` or `clips.failed` for the record, and each clip video's own `video.completed` or `video.failed`."
  })),
  language: Schema.optional(Language)
}

export interface ClipsRequest {
  readonly source: WorkSource
  readonly count?: number | undefined
  readonly minSeconds?: number | undefined
  readonly maxSeconds?: number | undefined
  readonly reframe?: ReframeSettings | undefined
  readonly templateId?: number | undefined
  readonly render?: RenderOptions | undefined
  readonly webhookUrl?: string | undefined
  readonly language?: string | undefined
}

export const startClips = (request: ClipsRequest) => {
  const bounds = {
    count: request.count ?? DEFAULT_CLIP_BOUNDS.count,
    minSeconds: request.minSeconds ?? DEFAULT_CLIP_BOUNDS.minSeconds,
    maxSeconds: request.maxSeconds ?? Math.max(DEFAULT_CLIP_BOUNDS.maxSeconds, (request.minSeconds ?? 0) + 5)
  }
  return startWork(clipsWork, {
    name: "clips",
    check: (workspace) =>
      Effect.gen(function*() {
        const refusal = clipBoundsRefusal(bounds)
        if (refusal !== null) return yield* new InvalidInput(refusal)
        yield* requireLanguage(request.language)
        return yield* resolveTemplate(workspace, request.templateId)
      }),
    render: renderAtCreate(request.render),
    prepare: (workspace, template) =>
      Effect.gen(function*() {
        const source = yield* recordedSource(workspace, request.source, checkSource)
        const at = yield* nowIso
        const clips = newClips({
          id: newId(),
          workspaceId: workspace.id,
          source,
          webhookUrl: request.webhookUrl ?? null,
          options: {
            ...bounds,
            reframe: request.reframe ?? null,
            templateId: template.id,
            render: request.render ?? null,
            language: request.language ?? null
          },
          at
        })
        return { record: clips, job: { type: MakeClips, payload: { clipsId: clips.id }, dedupeKey: clipsJobKey(clips.id) } }
      })
  }).pipe(
    Effect.map((clips) => ({ id: clips.id, status: "processing" as const, createdAt: clips.createdAt })),
    withSpan("startClips")
  )
}

export const createClips = operation({
  name: "createClips",
  summary: "Cut a long spoken video into captioned clips",
  description:
    "Transcribes the speech of the long video at `url` once and picks the stretches that stand alone as shorts: each starts and " +
    "ends on a sentence's end, lasts `minSeconds` to `maxSeconds`, and is scored on dense speech, a question and its answer, " +
    "numbers, strong words and a first line that hooks. Each of the best `count` becomes a caption video of its own (its own id, " +
    "editor link, captions and events; reframed with `reframe`, rendered with `render`). " +
    `${SOURCE_LIMITS}, checked once the video is fetched. Costs ${CAPTION_CREDITS_PER_MINUTE} credits per started minute of source ` +
    `for the transcription and ${CLIP_SELECTION_CREDITS_PER_MINUTE} for choosing the clips, refunded if the record fails; each clip ` +
    "video's reframing and render are charged on that video. Returns at once with status `processing`; poll GET /v1/clips/{id} " +
    "or pass `webhookUrl` (events `clips.completed` and `clips.failed`).",
  path: Schema.Struct({}),
  payload: Schema.Struct({ url: SourceUrl, ...ClipsFields }),
  output: CreatedClips,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/clips" },
  access: "workspace",
  tool: "create_clips",
  openWorld: true,
  cli: "clips",
  idempotent: true,
  readBack: getClips,
  handle: ({ url, ...rest }) => startClips({ source: { _tag: "Url", url }, ...rest }),
  upload: (file, rest) => startClips({ source: { _tag: "Upload", ...file }, ...rest })
})
