// The video record, its public object, and the only function allowed to change its state.
import { Either, Schema } from "effect"
import { recordId } from "./record-id.ts"
import { FrameRate, RenderFormat, RenderOptions } from "./rules.ts"

export const VideoId = recordId("video")

export const Status = Schema.Literal("processing", "completed", "failed").annotations({
  description: "`processing` until the work ends; `completed` and `failed` are terminal."
})
export type Status = typeof Status.Type

/** Pipeline steps in the order they run. `completed` is the last. */
export const STEPS = [
  "queued",
  "fetching_source",
  "probing",
  "reframing",
  "extracting_audio",
  "transcribing",
  "aligning",
  "speaking",
  "writing_scenes",
  "drawing",
  "making_footage",
  "building_captions",
  "rendering",
  "completed"
] as const
export const Step = Schema.Literal(...STEPS).annotations({
  description:
    "Pipeline step. Caption videos: queued, fetching_source, probing, reframing (only with a `reframe`: looking for faces and planning the windows), extracting_audio, transcribing, aligning (only with a `transcript`: its words timed to the audio), building_captions, rendering, completed. AI videos: queued, speaking, writing_scenes, drawing, building_captions, rendering, completed. Gameplay videos: queued, speaking, building_captions, rendering (a built-in game is drawn while it is encoded), completed. Fake-text and quiz videos: queued, speaking (every voice, then the sounds mixed in), building_captions, rendering (drawing the frames while encoding them), completed. A failed video keeps the step it failed in: making_footage is that of a video an earlier version failed to make footage for."
})
export type Step = typeof Step.Type

export const VideoKind = Schema.Literal("caption", "ai", "gameplay", "fake-text", "quiz").annotations({
  description:
    "What made the video: `caption` = a captioned spoken video; `ai` = a narrated, illustrated video made from a script; `gameplay` = a script narrated over gameplay footage; " +
    "`fake-text` = a chat conversation played as a video; `quiz` = a quiz of questions and answers."
})
export type VideoKind = typeof VideoKind.Type

/** Progress of an export started by the render operation on a finished video. */
export const ExportState = Schema.Struct({
  status: Schema.Literal("rendering", "completed", "failed").annotations({ description: "Where the export stands." }),
  format: RenderFormat,
  frameRate: FrameRate,
  startedAt: Schema.String.annotations({ description: "When the render operation was called (ISO 8601 UTC)." }),
  progress: Schema.Number.pipe(Schema.between(0, 1)).annotations({
    description: "Share of the encode done, 0 to 1; updated every few seconds while rendering."
  }),
  finishedAt: Schema.optional(Schema.String).annotations({ description: "When the export ended, once it has." }),
  error: Schema.optional(Schema.String).annotations({ description: "Why the export failed, when it did." }),
  startedIn: Schema.optional(Schema.Literal("api", "editor")).annotations({
    description: "Where the export was started: `api` (the render operation) or `editor` (the web editor's Export button, which sends no event)."
  })
}).annotations({
  identifier: "ExportState",
  description:
    "The latest export started with the render operation. The video's status stays terminal while it runs; `videoUrl` keeps the previous mp4 until the new one lands."
})
export type ExportState = typeof ExportState.Type

/** What the service stores about a video. Never purged: expiry removes media, not this record. */
export interface VideoRecord {
  readonly id: string
  readonly workspaceId: string
  readonly kind: VideoKind
  readonly status: Status
  readonly step: Step
  /** Whether an mp4 was requested (at create or later through the render operation). */
  readonly render: boolean
  /** Export settings requested at create; null when the create call had no `render`. */
  readonly renderOptions: RenderOptions | null
  readonly templateId: number
  readonly createdAt: string
  readonly updatedAt: string
  readonly editorToken: string
  /** The receiver's URL; a credential, never part of the public object. */
  readonly webhookUrl: string | null
  /** Numbered pieces of work: 0 is generation (with its render, if asked); each render operation adds one. */
  readonly work: number
  /** True once captions are timed: from then on the video can be exported. */
  readonly generated: boolean
  /** Where the source is fetched from, when it was given as a URL. */
  readonly sourceUrl: string | null
  readonly sourceFileId: string | null
  readonly videoFileId: string | null
  readonly thumbnailFileId: string | null
  readonly durationSeconds: number | null
  /** Seconds the trim's cuts take out of the source: the output lasts `durationSeconds - cutSeconds`. */
  readonly cutSeconds: number
  readonly width: number | null
  readonly height: number | null
  readonly error: string | null
  readonly export: ExportState | null
  /** When the media were deleted; the record stays, its files are gone and it can no longer be rendered. */
  readonly mediaDeletedAt: string | null
  /** The mp4s and thumbnails of earlier exports that a later one replaced: still the video's files. */
  readonly replacedFileIds: ReadonlyArray<string>
  /** The spoken language asked for at create (ISO 639-1); null leaves it to the engine. */
  readonly language: string | null
  /** The user's script (plain text, SRT or VTT) whose words the captions show; null: what is heard. */
  readonly transcript: string | null
}

export const WebhookEventName = Schema.Literal(
  "video.completed",
  "video.failed",
  "caption_removal.completed",
  "caption_removal.failed",
  "clips.completed",
  "clips.failed"
)
export type WebhookEventName = typeof WebhookEventName.Type

/** The effect every kind of work shares: announce how a piece of work ended, once per dedupe key. */
export interface Emit<Name extends WebhookEventName = WebhookEventName> {
  readonly _tag: "Emit"
  readonly event: Name
  readonly dedupeKey: string
}

/** Facts learned from the source once probed. */
export interface SourceFacts {
  readonly durationSeconds: number
  readonly width: number
  readonly height: number
}

export type VideoEvent =
  | { readonly _tag: "StepStarted"; readonly step: Step; readonly at: string }
  | { readonly _tag: "SourceStored"; readonly fileId: string; readonly at: string }
  | { readonly _tag: "SourceProbed"; readonly facts: SourceFacts; readonly at: string }
  /** The trim's cuts changed (at generation, or an edit of the captions): they take out this many seconds. */
  | { readonly _tag: "Trimmed"; readonly cutSeconds: number; readonly at: string }
  | { readonly _tag: "Generated"; readonly at: string }
  | {
    readonly _tag: "ExportRequested"
    readonly options: RenderOptions
    readonly webhookUrl: string | null
    /** Exports started in the editor send no event (the spec: editor changes, re-exports included, send none). */
    readonly startedIn?: "api" | "editor"
    readonly at: string
  }
  | {
    readonly _tag: "Rendered"
    readonly videoFileId: string
    readonly thumbnailFileId: string
    readonly at: string
  }
  | { readonly _tag: "ExportProgressed"; readonly fraction: number; readonly at: string }
  | { readonly _tag: "Failed"; readonly error: string; readonly at: string }
  | { readonly _tag: "Cancelled"; readonly at: string }
  | { readonly _tag: "MediaDeleted"; readonly at: string }

/** What the caller must do after a transition, inside the same transaction. */
export type VideoEffect =
  | Emit<"video.completed" | "video.failed">
  | { readonly _tag: "RefundWork"; readonly workKey: string }
  | { readonly _tag: "StartRender"; readonly options: RenderOptions; readonly workKey: string }
  | { readonly _tag: "StopWork"; readonly workKey: string }

/** The error of a video whose work was cancelled: it starts with "cancelled", then says what happened. */
export const CANCELLED_ERROR = "cancelled: the work was stopped on request, and the credits it had been charged were refunded."

export class IllegalTransition extends Schema.TaggedError<IllegalTransition>()("IllegalTransition", {
  from: Schema.String,
  event: Schema.String,
  reason: Schema.String
}) {}

/** Whether the video's pipeline has already started `step` (a resumed job skips recording it again). */
export const hasReachedStep = (video: Pick<VideoRecord, "step">, step: Step): boolean =>
  STEPS.indexOf(video.step) >= STEPS.indexOf(step)

/** The key of one piece of work; charges, refunds and events of that work share it. */
/** How long the output lasts: the source, less what the trim cuts; 0 before the source is probed. */
export const outputSeconds = (video: Pick<VideoRecord, "durationSeconds" | "cutSeconds">): number =>
  Math.max(0, (video.durationSeconds ?? 0) - video.cutSeconds)

export const workKey = (video: Pick<VideoRecord, "id" | "work">): string => `${video.id}:${video.work}`

/** What a piece of work is charged for, each item once. */
export type WorkItem = "captions" | "reframing" | "speech" | "render"

/** The ledger key of one item's charge for a piece of work, in whichever ledger pays it; its refund adds `:refund`. */
export const workChargeKey = (key: string, item: WorkItem): string => `${key}:${item}`

const isExporting = (v: VideoRecord): boolean => v.export?.status === "rendering"

/** Whether a piece of work is under way: generation, or an export of a finished video. */
export const isWorking = (v: Pick<VideoRecord, "status" | "export">): boolean =>
  v.status === "processing" || v.export?.status === "rendering"

/** The files the video's record names (source, mp4, thumbnail, earlier exports); a generated project names more. */
export const recordFileIds = (v: VideoRecord): ReadonlyArray<string> => [
  ...[v.sourceFileId, v.videoFileId, v.thumbnailFileId].filter((id): id is string => id !== null),
  ...v.replacedFileIds
]

export type Transition = Either.Either<
  { readonly video: VideoRecord; readonly effects: ReadonlyArray<VideoEffect> },
  IllegalTransition
>

const illegal = (v: VideoRecord, e: VideoEvent, reason: string): Transition =>
  Either.left(new IllegalTransition({ from: `${v.status}/${v.step}`, event: e._tag, reason }))

const ok = (video: VideoRecord, ...effects: Array<VideoEffect>): Transition => Either.right({ video, effects })

/** The event of a piece of work, unless it is an export started in the editor. */
const announced = (v: VideoRecord, emit: VideoEffect): ReadonlyArray<VideoEffect> =>
  isExporting(v) && v.export?.startedIn === "editor" ? [] : [emit]

/** Why a video's captions and style cannot be edited now, or null when they can. */
export const editRefusal = (v: VideoRecord): string | null =>
  !v.generated
    ? v.status === "processing" ? "the captions are not timed yet" : "the video failed before its captions were timed"
    : v.status === "processing" ? "the video is being rendered"
    : isExporting(v) ? "an export is running"
    : v.mediaDeletedAt !== null ? "its media were deleted"
    : null

/**
 * The state machine. Terminal statuses are left only through an export, and each piece of
 * work emits exactly one event: the first time it reaches a terminal status.
 */
export const transition = (v: VideoRecord, e: VideoEvent): Transition => {
  const touched = { ...v, updatedAt: e.at }
  switch (e._tag) {
    case "StepStarted": {
      if (v.status !== "processing") return illegal(v, e, "the video is not processing")
      if (e.step === "completed") return illegal(v, e, "completion happens through Generated or Rendered")
      if (STEPS.indexOf(e.step) < STEPS.indexOf(v.step)) return illegal(v, e, "steps only move forward")
      return ok({ ...touched, step: e.step })
    }
    case "SourceStored": {
      if (v.status !== "processing") return illegal(v, e, "the video is not processing")
      return ok({ ...touched, sourceFileId: e.fileId })
    }
    case "SourceProbed": {
      if (v.status !== "processing") return illegal(v, e, "the video is not processing")
      return ok({ ...touched, ...e.facts })
    }
    case "Trimmed": {
      if (v.status === "processing" ? false : !v.generated) return illegal(v, e, "the captions are not timed")
      if (v.mediaDeletedAt !== null) return illegal(v, e, "the media were deleted")
      return ok({ ...touched, cutSeconds: e.cutSeconds })
    }
    case "Generated": {
      if (v.status !== "processing" || v.generated) return illegal(v, e, "generation already ended")
      const generated = { ...touched, generated: true }
      if (v.renderOptions !== null) {
        return ok(
          { ...generated, step: "rendering" },
          { _tag: "StartRender", options: v.renderOptions, workKey: workKey(v) }
        )
      }
      return ok(
        { ...generated, status: "completed", step: "completed" },
        { _tag: "Emit", event: "video.completed", dedupeKey: workKey(v) }
      )
    }
    case "ExportRequested": {
      if (v.status === "processing") return illegal(v, e, "the video is still being generated")
      if (v.mediaDeletedAt !== null) return illegal(v, e, "its media were deleted, so there is nothing left to render from")
      if (!v.generated) return illegal(v, e, "the video failed before its captions were timed")
      if (isExporting(v)) return illegal(v, e, "an export is already running")
      const next: VideoRecord = {
        ...touched,
        render: true,
        work: v.work + 1,
        webhookUrl: e.webhookUrl ?? v.webhookUrl,
        export: {
          status: "rendering",
          format: e.options.format,
          frameRate: e.options.frameRate,
          startedAt: e.at,
          progress: 0,
          startedIn: e.startedIn ?? "api"
        }
      }
      return ok(next, { _tag: "StartRender", options: e.options, workKey: workKey(next) })
    }
    case "Rendered": {
      const replaced = [v.videoFileId, v.thumbnailFileId].filter((id): id is string => id !== null)
      const files = {
        videoFileId: e.videoFileId,
        thumbnailFileId: e.thumbnailFileId,
        replacedFileIds: [...v.replacedFileIds, ...replaced]
      }
      if (v.status === "processing" && v.generated) {
        return ok(
          { ...touched, ...files, status: "completed", step: "completed" },
          { _tag: "Emit", event: "video.completed", dedupeKey: workKey(v) }
        )
      }
      if (v.export !== null && isExporting(v)) {
        return ok(
          {
            ...touched,
            ...files,
            status: "completed",
            step: "completed",
            error: null,
            export: { ...v.export, status: "completed", progress: 1, finishedAt: e.at }
          },
          ...announced(v, { _tag: "Emit", event: "video.completed", dedupeKey: workKey(v) })
        )
      }
      return illegal(v, e, "no render is running")
    }
    case "ExportProgressed": {
      if (v.export === null || !isExporting(v)) return illegal(v, e, "no export is running")
      return ok({ ...touched, export: { ...v.export, progress: Math.min(1, Math.max(0, e.fraction)) } })
    }
    case "Failed":
    case "Cancelled": {
      // A cancelled job may still be running somewhere: it is told to stop before the refund is made.
      const error = e._tag === "Failed" ? e.error : CANCELLED_ERROR
      const failedEffects: Array<VideoEffect> = [
        ...(e._tag === "Cancelled" ? [{ _tag: "StopWork", workKey: workKey(v) } as const] : []),
        { _tag: "RefundWork", workKey: workKey(v) },
        ...announced(v, { _tag: "Emit", event: "video.failed", dedupeKey: workKey(v) })
      ]
      if (v.status === "processing") {
        return ok({ ...touched, status: "failed", error }, ...failedEffects)
      }
      if (v.export !== null && isExporting(v)) {
        return ok(
          {
            ...touched,
            status: "failed",
            error,
            export: { ...v.export, status: "failed", finishedAt: e.at, error }
          },
          ...failedEffects
        )
      }
      return illegal(v, e, `the video is ${v.status} and no export is running`)
    }
    case "MediaDeleted": {
      if (v.status === "processing") return illegal(v, e, "the video is still processing; cancel it first")
      if (isExporting(v)) return illegal(v, e, "an export is running; cancel it first")
      if (v.mediaDeletedAt !== null) return illegal(v, e, "its media were deleted already")
      return ok({ ...touched, mediaDeletedAt: e.at })
    }
  }
}

interface NewVideo {
  readonly id: string
  readonly workspaceId: string
  readonly templateId: number
  readonly renderOptions: RenderOptions | null
  readonly webhookUrl: string | null
  readonly editorToken: string
  readonly at: string
}

const newVideo = (input: NewVideo, kind: VideoKind): VideoRecord => ({
  id: input.id,
  workspaceId: input.workspaceId,
  kind,
  status: "processing",
  step: "queued",
  render: input.renderOptions !== null,
  renderOptions: input.renderOptions,
  templateId: input.templateId,
  createdAt: input.at,
  updatedAt: input.at,
  editorToken: input.editorToken,
  webhookUrl: input.webhookUrl,
  work: 0,
  generated: false,
  sourceUrl: null,
  sourceFileId: null,
  videoFileId: null,
  thumbnailFileId: null,
  durationSeconds: null,
  cutSeconds: 0,
  width: null,
  height: null,
  error: null,
  export: null,
  mediaDeletedAt: null,
  replacedFileIds: [],
  language: null,
  transcript: null
})

/** A new caption video, as the create operation records it. */
export const newCaptionVideo = (
  input: NewVideo & {
    readonly source: { readonly url: string } | { readonly fileId: string }
    readonly language?: string | undefined
    readonly transcript?: string | undefined
  }
): VideoRecord => ({
  ...newVideo(input, "caption"),
  language: input.language ?? null,
  transcript: input.transcript ?? null,
  sourceUrl: "url" in input.source ? input.source.url : null,
  sourceFileId: "fileId" in input.source ? input.source.fileId : null
})

/** A new video made from a script; its size is known at once, its length once the narration is spoken. */
export const newGeneratedVideo = (
  input: NewVideo & { readonly kind: Exclude<VideoKind, "caption">; readonly width: number; readonly height: number }
): VideoRecord => ({ ...newVideo(input, input.kind), width: input.width, height: input.height })

/** The public video object: what GET /v1/videos/:id returns and webhooks carry. */
export class Video extends Schema.Class<Video>("Video")({
  id: VideoId,
  kind: VideoKind,
  status: Status,
  step: Step,
  render: Schema.Boolean.annotations({
    description: "Whether an mp4 was requested. `false` when the create call had no `render` field."
  }),
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." }),
  editorUrl: Schema.String.annotations({ description: "Unguessable link to the project's page in the editor." }),
  templateId: Schema.Int.annotations({ description: "Caption style the video uses." }),
  videoUrl: Schema.optional(Schema.String).annotations({
    description: "Unguessable link to the mp4; present once the mp4 exists. Works in a browser; supports Range."
  }),
  thumbnailUrl: Schema.optional(Schema.String).annotations({ description: "A jpg still of the mp4." }),
  duration: Schema.optional(Schema.Number).annotations({
    description: "Seconds of the output, once known: the source's length, less what a `trim` cuts out."
  }),
  width: Schema.optional(Schema.Int).annotations({ description: "Display width in pixels, once known." }),
  height: Schema.optional(Schema.Int).annotations({ description: "Display height in pixels, once known." }),
  error: Schema.optional(Schema.String).annotations({
    description: "Present on failure; says what went wrong. A cancelled video's error starts with `cancelled`."
  }),
  export: Schema.optional(ExportState),
  mediaDeletedAt: Schema.optional(Schema.String).annotations({
    description:
      "When the video's files were deleted (DELETE /v1/videos/{id}/media). The record stays; `videoUrl` and `thumbnailUrl` are gone and it cannot be rendered again."
  })
}) {}

/**
 * Turns the record into its public object; links are built by the caller, who knows the base URL. The
 * constructor does not check the fields again: the record was decoded when it was read, HTTP and MCP
 * encode the answer through Video's Schema, and the check rebuilt the class's type on each call (about
 * 4% of a polled GET's CPU).
 */
export const toPublic = (
  v: VideoRecord,
  links: { readonly editorUrl: string; readonly videoUrl: string | null; readonly thumbnailUrl: string | null }
): Video =>
  new Video({
    id: v.id,
    kind: v.kind,
    status: v.status,
    step: v.step,
    render: v.render,
    createdAt: v.createdAt,
    editorUrl: links.editorUrl,
    templateId: v.templateId,
    ...(links.videoUrl === null ? {} : { videoUrl: links.videoUrl }),
    ...(links.thumbnailUrl === null ? {} : { thumbnailUrl: links.thumbnailUrl }),
    ...(v.durationSeconds === null ? {} : { duration: outputSeconds(v) }),
    ...(v.width === null ? {} : { width: v.width }),
    ...(v.height === null ? {} : { height: v.height }),
    ...(v.error === null ? {} : { error: v.error }),
    ...(v.export === null ? {} : { export: v.export }),
    ...(v.mediaDeletedAt === null ? {} : { mediaDeletedAt: v.mediaDeletedAt })
  }, { disableValidation: true })
