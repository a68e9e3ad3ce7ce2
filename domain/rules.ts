// Shared validation rules. Every surface (HTTP, MCP, CLI) decodes input with these schemas,
// so a rule is written once and answers the same everywhere.
import { Schema } from "effect"
import { MAX_FRAME_RATE, pictureLimitText, pictureProblem } from "./picture-limits.ts"
import { hasOnlySpeakableWords, hasSpeakableText, MAX_WORD_CHARACTERS } from "./spoken-words.ts"

export const MAX_WEBHOOK_URL_LENGTH = 1024
export const MAX_SOURCE_BYTES = 500 * 1000 * 1000
export const MAX_SOURCE_SECONDS = 2 * 60 * 60
export const MAX_SCRIPT_CHARACTERS = 5000

const isHttpsUrl = (s: string): boolean => {
  try {
    const url = new URL(s)
    return url.protocol === "https:" && url.hostname.length > 0
  } catch {
    return false
  }
}

const isHttpUrl = (s: string): boolean => {
  try {
    const url = new URL(s)
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0
  } catch {
    return false
  }
}

/** A callback URL. It is a credential (it may carry the receiver's secret), so it is never echoed back. */
export const WebhookUrl = Schema.String.pipe(
  Schema.maxLength(MAX_WEBHOOK_URL_LENGTH, {
    message: () => `webhookUrl must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`
  }),
  Schema.filter(isHttpsUrl, {
    message: () => "webhookUrl must be an absolute https:// URL (http:// is rejected, localhost included)"
  })
).annotations({
  identifier: "WebhookUrl",
  description:
    "HTTPS callback fired once when the work reaches a terminal status. At most 1024 characters; http:// is rejected. Treat it as a credential: put a secret in its path or query.",
  examples: ["https://hooks.example.com/reelwright/7Hq2xKp9"]
})

/** Where the service fetches a media file. Public http(s) addresses only; checked again when fetched. */
export const SourceUrl = Schema.String.pipe(
  Schema.maxLength(4096),
  Schema.filter(isHttpUrl, { message: () => "url must be an absolute http:// or https:// URL of the media file" })
).annotations({
  identifier: "SourceUrl",
  description:
    "Address of the media file itself (not a page playing it), reachable without authentication. At most 500 MB and 2 hours.",
  examples: ["https://media.example.com/talk.mp4"]
})

export const RenderFormat = Schema.Literal("standard", "greenscreen").annotations({
  description: "`standard` renders the finished video; `greenscreen` draws captions and overlays on solid #00FF00."
})
export type RenderFormat = typeof RenderFormat.Type

export const FrameRate = Schema.Literal(30, 60).annotations({ description: "Output frame rate: 30 or 60." })
export type FrameRate = typeof FrameRate.Type

/** The render fields; an empty object takes every default. */
export const RenderOptions = Schema.Struct({
  format: Schema.optionalWith(RenderFormat, { default: () => "standard" as const }),
  frameRate: Schema.optionalWith(FrameRate, { default: () => 30 as const })
}).annotations({
  identifier: "RenderOptions",
  description: "Export settings. `{}` accepts the defaults: standard, 30 fps."
})
export type RenderOptions = typeof RenderOptions.Type

export const TemplateId = Schema.Int.annotations({
  description:
    "Caption style. Negative = built-in, positive = saved by the workspace. Left out: the style the workspace used last (the built-in default -1 at first)."
})

/** The limits of a source video as a person reads them. */
export const SOURCE_LIMITS =
  `At most 500 MB, 2 hours, ${pictureLimitText("moving")} and ${MAX_FRAME_RATE} frames per second`

export type SourceCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly reason: string }

/** What a probe measured of a source video. */
export interface SourceFacts {
  readonly bytes: number
  readonly durationSeconds: number
  readonly width: number
  readonly height: number
  readonly frameRate: number
  readonly hasVideo: boolean
  /** A single picture (PNG, JPEG...), not a moving one. */
  readonly still: boolean
}

/** The limits of a source video (caption videos, caption removals), applied to what the probe measured. */
export const checkSourceLimits = (facts: SourceFacts): SourceCheck => {
  if (facts.bytes > MAX_SOURCE_BYTES) {
    return { ok: false, reason: `The source is ${formatMB(facts.bytes)}; the limit is 500 MB.` }
  }
  if (!facts.hasVideo) {
    return { ok: false, reason: "The source has no video stream: send a video file (mp4, mov, webm, mkv)." }
  }
  if (facts.still) {
    return { ok: false, reason: "The source is a still picture, not a video: send a video file (mp4, mov, webm, mkv)." }
  }
  const picture = pictureProblem("The source", "moving", facts)
  if (picture !== null) return { ok: false, reason: picture }
  if (facts.durationSeconds > MAX_SOURCE_SECONDS) {
    // Rounded up: a source just over the limit must not read as lasting exactly 120 minutes.
    return {
      ok: false,
      reason: `The source lasts ${Math.ceil(facts.durationSeconds / 60)} minutes; the limit is 2 hours.`
    }
  }
  return { ok: true }
}

/** A caption source: within the limits, and with sound to transcribe. */
export const checkSource = (facts: SourceFacts & { readonly hasAudio: boolean }): SourceCheck => {
  const limits = checkSourceLimits(facts)
  if (!limits.ok) return limits
  if (!facts.hasAudio) {
    return { ok: false, reason: "The source has no audio track, so there is no speech to caption." }
  }
  return { ok: true }
}

// Rounded up to 0.1 MB, so a size just over the limit never reads as exactly 500.0 MB.
const formatMB = (bytes: number): string => `${(Math.ceil(bytes / 100_000) / 10).toFixed(1)} MB`

/** What a narrated video or a speech says. */
export const Script = Schema.String.pipe(
  Schema.filter(hasSpeakableText, {
    message: () => "script has nothing a voice can speak: write it in words (emoji, symbols and punctuation alone are not read aloud)"
  }),
  Schema.maxLength(MAX_SCRIPT_CHARACTERS, { message: () => `script must be at most ${MAX_SCRIPT_CHARACTERS} characters` }),
  Schema.filter(hasOnlySpeakableWords, {
    message: () => `script has a word of over ${MAX_WORD_CHARACTERS} characters: put spaces between its words`
  })
).annotations({
  identifier: "Script",
  description: `The text to speak, at most ${MAX_SCRIPT_CHARACTERS} characters.`,
  examples: ["Three things nobody tells you about sourdough. First, the starter is slower in winter."]
})
