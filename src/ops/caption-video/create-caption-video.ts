// POST /v1/caption-videos, tool create_caption_video: records the video and queues its
// generation in one transaction, then answers at once with status `processing`.
import { Effect, Schema } from "effect"
import { InvalidInput } from "../../../domain/errors.ts"
import { Language, languageRefusal } from "../../../domain/languages.ts"
import { MAX_TRANSCRIPT_CHARACTERS, parseTranscript } from "../../../domain/transcript.ts"
import { Transcriber } from "../../../domain/ports/transcriber.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import type { TimedWord } from "../../../domain/captions.ts"
import { checkSource, RenderOptions, SOURCE_LIMITS, SourceUrl, TemplateId, WebhookUrl } from "../../../domain/rules.ts"
import { newCaptionVideo, Status, VideoId } from "../../../domain/video.ts"
import { GenerateCaptions, generationJobKey } from "../../kernel/job-catalogue.ts"
import { nowIso } from "../../kernel/now.ts"
import { operation } from "../../kernel/operation.ts"
import { createdVideo } from "../../kernel/present-video.ts"
import { newId, randomToken } from "../../kernel/secrets.ts"
import { startWork } from "../../kernel/start-work.ts"
import { videoWork } from "../../kernel/video-work.ts"
import { resolveTemplate } from "../caption-templates/parts/resolve-template.ts"
import { renderAtCreate } from "../render/parts/render-at-create.ts"
import { CaptionLookFields, type CaptionLookRequest, saveCaptionLook } from "../../shared/captions/caption-look-fields.ts"
import { recordedSource, type WorkSource } from "../../shared/media/require-source.ts"
import { getVideo } from "../videos/get-video.ts"
import { ReframeSettings } from "../../../domain/reframe.ts"
import { TrimSettings } from "../../../domain/trim.ts"

const Transcript = Schema.String.pipe(Schema.maxLength(MAX_TRANSCRIPT_CHARACTERS)).annotations({
  description:
    "What is said, to caption exactly as written instead of what the recogniser hears: plain text, SRT or WebVTT " +
    `(at most ${MAX_TRANSCRIPT_CHARACTERS} characters). Each word is timed by aligning it to the audio (the step \`aligning\`); ` +
    "SRT and VTT cue times are kept as anchors. A transcript that does not match the speech fails the video with an error saying so. English speech only."
})

export const CaptionVideoFields = {
  templateId: Schema.optional(TemplateId),
  render: Schema.optional(RenderOptions).annotations({
    description:
      "Export the mp4 as soon as captions are timed. `{}` takes the defaults. Left out: the video completes as an editable project without an mp4; call the render operation later."
  }),
  webhookUrl: Schema.optional(WebhookUrl),
  language: Schema.optional(Language),
  transcript: Schema.optional(Transcript),
  trim: Schema.optional(TrimSettings),
  reframe: Schema.optional(ReframeSettings),
  ...CaptionLookFields
}

export const CreatedVideo = Schema.Struct({
  id: VideoId,
  status: Status,
  render: Schema.Boolean.annotations({ description: "Whether the mp4 export was requested with `render`." }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." }),
  editorUrl: Schema.String.annotations({ description: "Unguessable link to the project in the editor." })
}).annotations({ identifier: "CreatedVideo", description: "The new video, processing in the background." })

export interface CaptionVideoRequest extends CaptionLookRequest {
  /** `Stored`: a clip cut from a talk. */
  readonly source: WorkSource
  readonly templateId?: number | undefined
  readonly render?: RenderOptions | undefined
  readonly webhookUrl?: string | undefined
  readonly language?: string | undefined
  readonly transcript?: string | undefined
  /** Words timed already (a clip of a talk transcribed once): the video is not transcribed again, nor charged for it. */
  readonly words?: ReadonlyArray<TimedWord> | undefined
}

/** A language the service's recogniser cannot do is refused at create (400 naming `language`), not at the job. */
export const requireLanguage = (language: string | undefined) =>
  Effect.flatMap(Transcriber, (transcriber) => {
    const refusal = language === undefined ? null : languageRefusal(language, transcriber.languages, `${transcriber.name}, ${transcriber.model}`)
    return refusal === null ? Effect.void : Effect.fail(new InvalidInput({ field: "language", message: refusal }))
  })

/** A transcript is read at create, so a malformed one is a 400 naming the line, not a failed video. */
const requireTranscript = (transcript: string | undefined, language: string | undefined) => {
  if (transcript === undefined) return Effect.void
  if (language !== undefined && language !== "en") {
    return Effect.fail(new InvalidInput({ field: "transcript", message: "transcripts are aligned to English speech only; leave `language` out or send `en`" }))
  }
  const parsed = parseTranscript(transcript)
  return parsed.ok ? Effect.void : Effect.fail(new InvalidInput({ field: "transcript", message: parsed.reason }))
}

/** Shared by the JSON operation and the HTTP-only multipart upload. */
export const startCaptionVideo = (request: CaptionVideoRequest) =>
  startWork(videoWork, {
    name: "caption video",
    check: (workspace) =>
      requireLanguage(request.language).pipe(
        Effect.zipRight(requireTranscript(request.transcript, request.language)),
        Effect.zipRight(resolveTemplate(workspace, request.templateId))
      ),
    render: renderAtCreate(request.render),
    prepare: (workspace, template) =>
      Effect.gen(function*() {
        const source = yield* recordedSource(workspace, request.source, checkSource)
        const at = yield* nowIso
        const video = newCaptionVideo({
          id: newId(),
          workspaceId: workspace.id,
          templateId: template.id,
          renderOptions: request.render ?? null,
          webhookUrl: request.webhookUrl ?? null,
          editorToken: randomToken("ed_"),
          source,
          language: request.language,
          transcript: request.transcript,
          at
        })
        return {
          record: video,
          job: { type: GenerateCaptions, payload: { videoId: video.id }, dedupeKey: generationJobKey(video.id) },
          alongside: Effect.all([
            (yield* WorkspaceStore).update({ ...workspace, lastTemplateId: template.id }),
            saveCaptionLook(video.id, request, template.style),
            request.words === undefined ? Effect.void : (yield* VideoStore).saveWords(video.id, request.words)
          ], { discard: true })
        }
      })
  }).pipe(Effect.flatMap(createdVideo))

export const createCaptionVideo = operation({
  name: "createCaptionVideo",
  summary: "Caption a video",
  description:
    "Transcribes the speech of the video at `url` and burns captions in. " +
    `${SOURCE_LIMITS}, checked once the video is fetched (the video fails). ` +
    "Returns at once with status `processing`; poll GET /v1/videos/{id} or pass `webhookUrl`.",
  path: Schema.Struct({}),
  payload: Schema.Struct({ url: SourceUrl, ...CaptionVideoFields }),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/caption-videos" },
  access: "workspace",
  tool: "create_caption_video",
  openWorld: true,
  cli: "caption",
  idempotent: true,
  readBack: getVideo,
  handle: ({ url, ...rest }) => startCaptionVideo({ source: { _tag: "Url", url }, ...rest }),
  upload: (file, rest) => startCaptionVideo({ source: { _tag: "Upload", ...file }, ...rest })
})
