// What each operation costs. Prices are integers: credits, and cash in cents.
// Rounding rule (documented in the README): duration is counted per started second of output,
// and the resulting amount is rounded up to a whole credit (or cent).
import { centsToMicrodollars } from "./cash.ts"
import type { FrameRate } from "./rules.ts"

/** Export credits per minute of output, by frame rate. */
export const RENDER_CREDITS_PER_MINUTE: Readonly<Record<FrameRate, number>> = { 30: 30, 60: 60 }

/** BYOK export price per minute of output, in cents ($0.10). */
export const BYOK_RENDER_CENTS_PER_MINUTE = 10

/** Timing captions (transcription) costs this many credits per started minute of source. */
export const CAPTION_CREDITS_PER_MINUTE = 2

/** Speech (text to speech, and the narration of generated videos) per minute of audio, counted per started second. */
export const SPEECH_CREDITS_PER_MINUTE = 3

/** Caption removal: finding the text, per started minute of source, charged whatever is found. */
export const REMOVAL_ANALYSIS_CREDITS_PER_MINUTE = 2
/** Caption removal: wiping what was found and encoding the clean video, per started minute of source; nothing when no text is found. */
export const REMOVAL_WIPE_CREDITS_PER_MINUTE = 8

/** Reframing that looks for faces (`face`, `split`), per started minute of source; `center` and `fit` look at nothing and cost nothing. */
export const REFRAME_CREDITS_PER_MINUTE = 2

/** Clips: choosing them from the whole source's transcript, per started minute of source (its transcription is charged as captions). */
export const CLIP_SELECTION_CREDITS_PER_MINUTE = 1

/** A fake-text screenshot: one png, one price. */
export const FAKE_TEXT_SCREENSHOT_CREDITS = 10

const startedSeconds = (seconds: number): number => Math.max(1, Math.ceil(seconds - 1e-9))

const perMinute = (seconds: number, ratePerMinute: number): number =>
  Math.ceil((startedSeconds(seconds) * ratePerMinute) / 60)

export const renderCredits = (durationSeconds: number, frameRate: FrameRate): number =>
  perMinute(durationSeconds, RENDER_CREDITS_PER_MINUTE[frameRate])

export const byokRenderCents = (durationSeconds: number): number =>
  perMinute(durationSeconds, BYOK_RENDER_CENTS_PER_MINUTE)

/** The BYOK render charge on the cash balance: whole cents as above, then exactly 10,000 micro-dollars each. */
export const byokRenderMicrodollars = (durationSeconds: number): number =>
  centsToMicrodollars(byokRenderCents(durationSeconds))

export const captionCredits = (sourceSeconds: number): number =>
  Math.ceil(startedSeconds(sourceSeconds) / 60) * CAPTION_CREDITS_PER_MINUTE

export const reframeCredits = (sourceSeconds: number): number =>
  Math.ceil(startedSeconds(sourceSeconds) / 60) * REFRAME_CREDITS_PER_MINUTE

export const clipSelectionCredits = (sourceSeconds: number): number =>
  Math.ceil(startedSeconds(sourceSeconds) / 60) * CLIP_SELECTION_CREDITS_PER_MINUTE

export const removalAnalysisCredits = (sourceSeconds: number): number =>
  Math.ceil(startedSeconds(sourceSeconds) / 60) * REMOVAL_ANALYSIS_CREDITS_PER_MINUTE

export const removalWipeCredits = (sourceSeconds: number): number =>
  Math.ceil(startedSeconds(sourceSeconds) / 60) * REMOVAL_WIPE_CREDITS_PER_MINUTE

export const speechCredits = (audioSeconds: number): number => perMinute(audioSeconds, SPEECH_CREDITS_PER_MINUTE)

/** The speech price as the operations' descriptions state it, from the rate above. */
export const speechPriceText = (of: "narration" | "audio" | "speech"): string =>
  `${SPEECH_CREDITS_PER_MINUTE} credits per minute of ${of} (counted per started second, rounded up to a whole credit)`

/** The BYOK render price as the descriptions state it: `$0.10 per minute of output`. */
export const BYOK_RENDER_PRICE_TEXT = `$${(BYOK_RENDER_CENTS_PER_MINUTE / 100).toFixed(2)} per minute of output`

/** A script is read at about 2.5 words a second: what a speech will cost, before it is spoken. */
export const estimatedSpeechSeconds = (words: number): number => words / 2.5
