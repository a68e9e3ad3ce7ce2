// Every background job, declared once: its kind, its lane and its payload. Producers enqueue through
// these (job.ts), and each has one handler, bound to the same declaration, in the worker (src/worker.ts).
import { Schema } from "effect"
import { RenderOptions } from "../../domain/rules.ts"
import { jobType } from "./job.ts"

const VideoPayload = Schema.Struct({ videoId: Schema.String })

/** A caption video's source fetched, transcribed and timed. */
export const GenerateCaptions = jobType({ kind: "caption-video.generate", lane: "media", payload: VideoPayload })

/** A generated video's narration, pictures or footage, and its render when one was asked for. */
export const GenerateVideo = jobType({ kind: "generated-video.generate", lane: "media", payload: VideoPayload })

/** One export of a video: a piece of work named by its work key. */
export const RenderVideo = jobType({
  kind: "video.render",
  lane: "media",
  payload: Schema.Struct({ videoId: Schema.String, workKey: Schema.String, options: RenderOptions })
})

/** The editor's picture of a generated video: its timeline without captions, at half size. */
export const MakeEditorPicture = jobType({ kind: "editor.picture", lane: "media", payload: VideoPayload })

/** A long video transcribed once and cut into clips, each made a caption video. */
export const MakeClips = jobType({ kind: "clips.make", lane: "media", payload: Schema.Struct({ clipsId: Schema.String }) })

export const RemoveCaptions = jobType({ kind: "caption-removal.run", lane: "media", payload: Schema.Struct({ removalId: Schema.String }) })

/** One series of attempts to deliver an outbox event; series 1 is the automatic one (jobs queued before redelivery existed carry none). */
export const DeliverWebhook = jobType({
  kind: "webhook.deliver",
  lane: "webhooks",
  payload: Schema.Struct({ eventId: Schema.String, series: Schema.optionalWith(Schema.Int, { default: () => 1 }) })
})

export const GrantMonthlyCredits = jobType({ kind: "plans.grant-monthly", lane: "media", payload: Schema.Struct({ month: Schema.String }) })

export const SweepExpiredFiles = jobType({ kind: "files.sweep-expired", lane: "media", payload: Schema.Struct({}) })

/** The authorization server's expired codes, tokens and sessions, and its unused clients, deleted. */
export const SweepOAuth = jobType({ kind: "oauth.sweep", lane: "media", payload: Schema.Struct({}) })

export const JOB_TYPES = [
  GenerateCaptions,
  GenerateVideo,
  RenderVideo,
  MakeEditorPicture,
  RemoveCaptions,
  MakeClips,
  DeliverWebhook,
  GrantMonthlyCredits,
  SweepExpiredFiles,
  SweepOAuth
] as const

// Dedupe keys name a video's jobs, so that a job is queued once and a cancel can find it.
export const generationJobKey = (videoId: string): string => `generate:${videoId}`
export const renderJobKey = (workKey: string): string => `render:${workKey}`
export const removalJobKey = (removalId: string): string => `remove:${removalId}`
export const clipsJobKey = (clipsId: string): string => `clips:${clipsId}`
export const editorPictureJobKey = (videoId: string): string => `editor-picture:${videoId}`
/** Series 1 is the automatic delivery; each redelivery queues a job of its own. */
export const deliveryJobKey = (eventId: string, series: number): string =>
  series === 1 ? `deliver:${eventId}` : `deliver:${eventId}:${series}`
/** One grant job per calendar month (`YYYY-MM`), however many workers queue it. */
export const monthlyGrantJobKey = (month: string): string => `monthly-grant:${month}`
/** One expired-file sweep per period (named by its start, epoch ms), however many workers queue it. */
export const fileSweepJobKey = (periodStart: number): string => `file-sweep:${new Date(periodStart).toISOString()}`
/** One OAuth sweep per period (named by its start, epoch ms), however many workers queue it. */
export const oauthSweepJobKey = (periodStart: number): string => `oauth-sweep:${new Date(periodStart).toISOString()}`
