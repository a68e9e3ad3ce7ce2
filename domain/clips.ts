// The clips record (a long spoken video cut into short caption videos), its public object, and the only
// function allowed to change its state. The record is done once its clips are chosen and each has its
// caption video; the videos then go their own way, each with its own status and events.
import { Either, Schema } from "effect"
import { TimedWord } from "./captions.ts"
import { ClipReason } from "./clip-selection.ts"
import { recordId } from "./record-id.ts"
import { ReframeSettings } from "./reframe.ts"
import { announcingEnd, startedWork } from "./work-record.ts"
import { RenderOptions } from "./rules.ts"
import { type Emit, IllegalTransition, Status as VideoStatus, VideoId } from "./video.ts"

export const ClipsId = recordId("clips record")

export const ClipsStatus = Schema.Literal("processing", "completed", "failed").annotations({
  description: "`processing` until the clips are chosen and their videos created; `completed` and `failed` are terminal."
})
export type ClipsStatus = typeof ClipsStatus.Type

/** Steps in the order they run. `completed` is the last. */
export const CLIPS_STEPS = [
  "queued",
  "fetching_source",
  "probing",
  "extracting_audio",
  "transcribing",
  "selecting",
  "cutting",
  "completed"
] as const
export const ClipsStep = Schema.Literal(...CLIPS_STEPS).annotations({
  description:
    "Step of the work, in order: queued, fetching_source, probing, extracting_audio, transcribing (the whole source, once), " +
    "selecting (scoring stretches of whole sentences), cutting (each clip's source cut and its caption video created), completed. " +
    "A failed record keeps the step it failed in."
})
export type ClipsStep = typeof ClipsStep.Type

/** What the create call asked for (stored as it is). */
export const ClipsOptions = Schema.Struct({
  count: Schema.Int,
  minSeconds: Schema.Number,
  maxSeconds: Schema.Number,
  reframe: Schema.NullOr(ReframeSettings),
  /** The caption style of every clip; null: the workspace's last. */
  templateId: Schema.NullOr(Schema.Int),
  /** Each clip's mp4 export; null: each clip is an editable project. */
  render: Schema.NullOr(RenderOptions),
  language: Schema.NullOr(Schema.String)
})
export type ClipsOptions = typeof ClipsOptions.Type

/** A clip chosen: where it is in the source, why, and its caption video once created. */
export const ChosenClip = Schema.Struct({
  startSeconds: Schema.Number,
  endSeconds: Schema.Number,
  score: Schema.Int,
  reasons: Schema.Array(ClipReason),
  firstLine: Schema.String,
  /** The clip's own words, timed from its start: its caption video's captions, so the clip is never transcribed again. */
  words: Schema.Array(TimedWord),
  videoId: Schema.NullOr(Schema.String)
})
export type ChosenClip = typeof ChosenClip.Type

/** What the service stores about a clips request. */
export interface ClipsRecord {
  readonly id: string
  readonly workspaceId: string
  readonly status: ClipsStatus
  readonly step: ClipsStep
  readonly createdAt: string
  readonly updatedAt: string
  readonly sourceUrl: string | null
  readonly sourceFileId: string | null
  /** The receiver's URL; a credential, never part of the public object. */
  readonly webhookUrl: string | null
  readonly options: ClipsOptions
  readonly durationSeconds: number | null
  /** Best first; null until chosen. */
  readonly clips: ReadonlyArray<ChosenClip> | null
  readonly creditsCharged: number
  readonly refunded: boolean
  readonly refundedCredits: number
  readonly error: string | null
}

export type ClipsEvent =
  | { readonly _tag: "StepStarted"; readonly step: ClipsStep; readonly at: string }
  | { readonly _tag: "SourceStored"; readonly fileId: string; readonly at: string }
  | { readonly _tag: "SourceProbed"; readonly durationSeconds: number; readonly at: string }
  | { readonly _tag: "Charged"; readonly credits: number; readonly at: string }
  | { readonly _tag: "Selected"; readonly clips: ReadonlyArray<Omit<ChosenClip, "videoId">>; readonly at: string }
  | { readonly _tag: "VideoCreated"; readonly index: number; readonly videoId: string; readonly at: string }
  | { readonly _tag: "Completed"; readonly at: string }
  | { readonly _tag: "Failed"; readonly error: string; readonly refundedCredits: number; readonly at: string }

/** The record's charges and refunds share this work key in the ledger. */
export const clipsWorkKey = (clipsId: string): string => `clips:${clipsId}`

export type ClipsEffect = Emit<"clips.completed" | "clips.failed">

export const isTerminal = (r: Pick<ClipsRecord, "status">): boolean => r.status !== "processing"

/** Whether the record has already started `step` (a resumed job skips recording it again). */
export const hasReachedClipsStep = (r: Pick<ClipsRecord, "step">, step: ClipsStep): boolean =>
  CLIPS_STEPS.indexOf(r.step) >= CLIPS_STEPS.indexOf(step)

/** The clips still without their caption video, with their places in the list. */
export const clipsToCreate = (r: Pick<ClipsRecord, "clips">): ReadonlyArray<{ readonly index: number; readonly clip: ChosenClip }> =>
  (r.clips ?? []).flatMap((clip, index) => clip.videoId === null ? [{ index, clip }] : [])

type ClipsTransition = Either.Either<ClipsRecord, IllegalTransition>

const illegal = (r: ClipsRecord, e: ClipsEvent, reason: string): ClipsTransition =>
  Either.left(new IllegalTransition({ from: `${r.status}/${r.step}`, event: e._tag, reason }))

const isCredits = (n: number): boolean => Number.isInteger(n) && n >= 0

/** The state machine. Every event needs a record still processing: `completed` and `failed` are final. */
export const applyClipsEvent = (r: ClipsRecord, e: ClipsEvent): ClipsTransition => {
  if (isTerminal(r)) return illegal(r, e, `the clips record is ${r.status}`)
  const touched = { ...r, updatedAt: e.at }
  switch (e._tag) {
    case "StepStarted": {
      if (e.step === "completed") return illegal(r, e, "completion happens through Completed")
      if (CLIPS_STEPS.indexOf(e.step) < CLIPS_STEPS.indexOf(r.step)) return illegal(r, e, "steps only move forward")
      return Either.right({ ...touched, step: e.step })
    }
    case "SourceStored":
      return Either.right({ ...touched, sourceFileId: e.fileId })
    case "SourceProbed":
      return Either.right({ ...touched, durationSeconds: e.durationSeconds })
    case "Charged":
      return isCredits(e.credits)
        ? Either.right({ ...touched, creditsCharged: r.creditsCharged + e.credits })
        : illegal(r, e, "credits are a whole, non-negative number")
    case "Selected": {
      if (r.clips !== null) return illegal(r, e, "the clips were chosen already")
      if (e.clips.length === 0 || e.clips.length > r.options.count) return illegal(r, e, `between 1 and ${r.options.count} clips are chosen`)
      return Either.right({ ...touched, clips: e.clips.map((clip) => ({ ...clip, videoId: null })) })
    }
    case "VideoCreated": {
      const clip = r.clips?.[e.index]
      if (clip === undefined) return illegal(r, e, `there is no clip ${e.index}`)
      if (clip.videoId !== null) return illegal(r, e, `clip ${e.index} has its video already`)
      return Either.right({ ...touched, clips: r.clips!.map((c, i) => i === e.index ? { ...c, videoId: e.videoId } : c) })
    }
    case "Completed": {
      if (r.clips === null || clipsToCreate(r).length > 0) return illegal(r, e, "every clip needs its video first")
      return Either.right({ ...touched, status: "completed", step: "completed" })
    }
    case "Failed": {
      if (!isCredits(e.refundedCredits)) return illegal(r, e, "credits are a whole, non-negative number")
      if (e.refundedCredits > r.creditsCharged) return illegal(r, e, "more credits refunded than were charged")
      return Either.right({ ...touched, status: "failed", error: e.error, refunded: e.refundedCredits > 0, refundedCredits: e.refundedCredits })
    }
  }
}

/** The state machine with what must follow it: a record that ends announces it, once, whichever way it ended. */
export const clipsTransition = announcingEnd(applyClipsEvent, { completed: "clips.completed", failed: "clips.failed" })

/** A new clips record, as the create operation records it. */
export const newClips = (input: {
  readonly id: string
  readonly workspaceId: string
  readonly source: { readonly url: string } | { readonly fileId: string }
  readonly webhookUrl: string | null
  readonly options: ClipsOptions
  readonly at: string
}): ClipsRecord => ({
  ...startedWork(input),
  options: input.options,
  durationSeconds: null,
  clips: null,
  creditsCharged: 0,
  refunded: false,
  refundedCredits: 0,
  error: null
})

const Seconds = (description: string) => Schema.Number.annotations({ description })

export const ClipObject = Schema.Struct({
  videoId: Schema.optional(VideoId).annotations({
    description: "The clip's caption video (GET /v1/videos/{id}, its captions and render); present once created in step `cutting`."
  }),
  editorUrl: Schema.optional(Schema.String).annotations({ description: "Unguessable link to the clip's project in the editor, once created." }),
  videoStatus: Schema.optional(VideoStatus).annotations({ description: "The clip video's own status, once created." }),
  startSeconds: Seconds("Where the clip starts in the source: just before its first word."),
  endSeconds: Seconds("Where the clip ends in the source: just after its last word."),
  duration: Seconds("The clip's length in seconds."),
  score: Schema.Int.pipe(Schema.between(0, 100)).annotations({ description: "How well the clip stands alone as a short, 0-100; the list is best first." }),
  reasons: Schema.Array(ClipReason).annotations({ description: "What raised the score." }),
  firstLine: Schema.String.annotations({ description: "The clip's first sentence as heard." })
}).annotations({ identifier: "Clip", description: "One clip: a stretch of whole sentences of the source, made a caption video of its own." })
export type ClipObject = typeof ClipObject.Type

/** The public clips object: what GET returns and webhooks carry. */
export const ClipsObject = Schema.Struct({
  id: ClipsId,
  status: ClipsStatus,
  step: ClipsStep,
  createdAt: Schema.String.annotations({ description: "ISO 8601 UTC timestamp with milliseconds." }),
  duration: Schema.optional(Schema.Number).annotations({ description: "The source's length in seconds, once known." }),
  count: Schema.Int.annotations({ description: "How many clips were asked for at most." }),
  minSeconds: Schema.Number.annotations({ description: "The shortest clip asked for, in seconds." }),
  maxSeconds: Schema.Number.annotations({ description: "The longest clip asked for, in seconds." }),
  reframe: Schema.optional(ReframeSettings).annotations({ description: "The shape every clip is reframed to, when one was asked." }),
  render: Schema.Boolean.annotations({ description: "Whether each clip's mp4 export was requested." }),
  clips: Schema.Array(ClipObject).annotations({ description: "The clips chosen, best first; empty until step `selecting` ends." }),
  error: Schema.optional(Schema.String).annotations({ description: "Present on failure; says what went wrong." }),
  creditsCharged: Schema.Int.pipe(Schema.nonNegative()).annotations({
    description: "Credits this record charged: transcribing the source and choosing the clips (each clip video's reframing and render are charged on that video)."
  }),
  refunded: Schema.Boolean.annotations({ description: "Whether this record's credits went back to the workspace because it failed." }),
  refundedCredits: Schema.optional(Schema.Int.pipe(Schema.nonNegative())).annotations({ description: "How many credits went back, when some did." })
}).annotations({
  identifier: "Clips",
  description: "A long spoken video cut into short caption videos: the clips chosen, each with its caption video."
})
export type ClipsObject = typeof ClipsObject.Type

/** What the presenter knows of each clip's video. */
export interface ClipVideoFacts {
  readonly editorUrl: string
  readonly status: typeof VideoStatus.Type
}

/** Turns the record into its public object; each created clip video's link and status come from the caller. */
export const presentClipsRecord = (
  r: ClipsRecord,
  videoFacts: (videoId: string) => ClipVideoFacts | null
): ClipsObject => ({
  id: r.id,
  status: r.status,
  step: r.step,
  createdAt: r.createdAt,
  ...(r.durationSeconds === null ? {} : { duration: r.durationSeconds }),
  count: r.options.count,
  minSeconds: r.options.minSeconds,
  maxSeconds: r.options.maxSeconds,
  ...(r.options.reframe === null ? {} : { reframe: r.options.reframe }),
  render: r.options.render !== null,
  clips: (r.clips ?? []).map((clip) => {
    const facts = clip.videoId === null ? null : videoFacts(clip.videoId)
    return {
      ...(clip.videoId === null ? {} : { videoId: clip.videoId }),
      ...(facts === null ? {} : { editorUrl: facts.editorUrl, videoStatus: facts.status }),
      startSeconds: clip.startSeconds,
      endSeconds: clip.endSeconds,
      duration: Math.round((clip.endSeconds - clip.startSeconds) * 1000) / 1000,
      score: clip.score,
      reasons: clip.reasons,
      firstLine: clip.firstLine
    }
  }),
  ...(r.error === null ? {} : { error: r.error }),
  creditsCharged: r.creditsCharged,
  refunded: r.refunded,
  ...(r.refunded ? { refundedCredits: r.refundedCredits } : {})
})
