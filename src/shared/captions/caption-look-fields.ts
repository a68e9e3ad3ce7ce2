// What every create that burns captions takes besides the template: a hook title, the app whose
// overlays the captions keep out of, whether important words are emphasised and lines get emoji. All are edits of the project from then on (PATCH .../captions).
import { Effect, Schema } from "effect"
import { NO_EDITS } from "../../../domain/caption-edits.ts"
import { EmojiMode } from "../../../domain/caption-emoji.ts"
import { EmphasisMode } from "../../../domain/caption-emphasis.ts"
import { CaptionHook } from "../../../domain/caption-hook.ts"
import type { CaptionStyle } from "../../../domain/captions.ts"
import { VideoStore } from "../../../domain/ports/video-store.ts"
import { Platform } from "../../../domain/safe-zones.ts"
import type { ReframeSettings } from "../../../domain/reframe.ts"
import type { TrimSettings } from "../../../domain/trim.ts"

export const CaptionLookFields = {
  hook: Schema.optional(CaptionHook),
  platform: Schema.optional(Platform),
  emphasis: Schema.optional(EmphasisMode),
  emoji: Schema.optional(EmojiMode)
}

export interface CaptionLookRequest {
  readonly hook?: CaptionHook | undefined
  readonly platform?: Platform | undefined
  readonly emphasis?: EmphasisMode | undefined
  readonly emoji?: EmojiMode | undefined
  /** Caption videos only: their speech is a person's, with pauses and fillers to cut. */
  readonly trim?: TrimSettings | undefined
  /** Caption videos only: their source's frame is the one reframed. */
  readonly reframe?: ReframeSettings | undefined
}

/**
 * Saves the asked hook, platform, emphasis, emoji, trim and reframe as the project's first edits (revision 0), in
 * the create's transaction; emoji left out is the template's default.
 */
export const saveCaptionLook = (videoId: string, request: CaptionLookRequest, template: Pick<CaptionStyle, "emoji">) =>
  request.hook === undefined && request.platform === undefined && request.emphasis === undefined && (request.emoji ?? template.emoji) === undefined &&
    request.trim === undefined && request.reframe === undefined
    ? Effect.void
    : Effect.flatMap(VideoStore, (videos) =>
      videos.saveCaptionEdits(videoId, {
        ...NO_EDITS,
        hook: request.hook ?? null,
        platform: request.platform ?? "none",
        emphasis: request.emphasis ?? "off",
        emoji: request.emoji ?? template.emoji ?? "off",
        trim: request.trim ?? null,
        reframe: request.reframe ?? null
      }))
