// Where short-video apps draw their own interface over a 9:16 video (buttons, names, the description),
// so captions and the hook keep out of it. Rectangles are fractions of the frame, read off the apps'
// layouts at 1080x1920 (late 2026); they hold for portrait frames only: a square or landscape video
// sits between bars there, clear of the overlays.
import { Schema } from "effect"
// Types only: captions.ts imports this module's Platform, so a value import back would be a cycle.
import type { CaptionStyle, placementOf } from "./captions.ts"

export const Platform = Schema.Literal("tiktok", "reels", "shorts", "none").annotations({
  description:
    "Keep captions and the hook out of that app's interface overlays (portrait videos): `tiktok`, `reels` (Instagram), `shorts` (YouTube), or `none` (the default)."
})
export type Platform = typeof Platform.Type

/** How a person knows each app. */
export const PLATFORM_NAMES: Readonly<Record<Platform, string>> = {
  none: "None",
  tiktok: "TikTok",
  reels: "Instagram Reels",
  shorts: "YouTube Shorts"
}

export interface SafeZone {
  /** What the app draws there. */
  readonly label: string
  readonly x: number
  readonly y: number
  readonly width: number
  readonly height: number
}

export const SAFE_ZONES: Readonly<Record<Platform, ReadonlyArray<SafeZone>>> = {
  tiktok: [
    { label: "tabs and search", x: 0, y: 0, width: 1, height: 0.085 },
    { label: "like, comment, share and sound buttons", x: 0.875, y: 0.36, width: 0.125, height: 0.4 },
    { label: "account name, description and sound", x: 0, y: 0.76, width: 1, height: 0.24 }
  ],
  reels: [
    { label: "Reels header and camera", x: 0, y: 0, width: 1, height: 0.11 },
    { label: "like, comment, share and audio buttons", x: 0.87, y: 0.45, width: 0.13, height: 0.34 },
    { label: "account name, caption and audio", x: 0, y: 0.79, width: 1, height: 0.21 }
  ],
  shorts: [
    { label: "search and menu", x: 0, y: 0, width: 1, height: 0.09 },
    { label: "like, dislike, comment, share and remix buttons", x: 0.86, y: 0.42, width: 0.14, height: 0.38 },
    { label: "channel, title and sound", x: 0, y: 0.8, width: 1, height: 0.2 }
  ],
  none: []
}

/** How far from each edge the frame is clear of the zones: a zone on an edge pushes that edge in. */
export interface SafeInsets {
  readonly top: number
  readonly bottom: number
  readonly left: number
  readonly right: number
}

export const NO_INSETS: SafeInsets = { top: 0, bottom: 0, left: 0, right: 0 }

/** The zones the app draws over a video of this size: none over a square or landscape one. */
export const zonesOver = (platform: Platform, width: number, height: number): ReadonlyArray<SafeZone> =>
  height > width ? SAFE_ZONES[platform] : []

/** A band across the frame (the apps' top and bottom), rather than a column of buttons at one side. */
const isBand = (zone: SafeZone): boolean => zone.width >= 0.5

export const safeInsets = (platform: Platform, width: number, height: number): SafeInsets => {
  const zones = zonesOver(platform, width, height)
  if (zones.length === 0) return NO_INSETS
  const edge = (pick: (zone: SafeZone) => number | null) => Math.max(0, ...zones.map((zone) => pick(zone) ?? 0))
  return {
    top: edge((z) => (isBand(z) && z.y === 0 ? z.height : null)),
    bottom: edge((z) => (isBand(z) && z.y + z.height >= 1 ? z.height : null)),
    left: edge((z) => (!isBand(z) && z.x === 0 ? z.width : null)),
    right: edge((z) => (!isBand(z) && z.x + z.width >= 1 ? z.width : null))
  }
}

/** Where a caption block sits (placementOf of its style) and how many lines of what size it holds. */
export type CaptionBlock = ReturnType<typeof placementOf> & Pick<CaptionStyle, "linesPerPage" | "fontSizeRatio">

/** A line's height over its font size, near what libass gives the caption fonts (ascent, descent, outline). */
const LINE_HEIGHT = 1.25

/**
 * How far down the frame a full page of the block reaches, as fractions of the height: an estimate,
 * since a page may hold fewer lines and a line wrap.
 */
export const blockExtent = (block: CaptionBlock): { readonly top: number; readonly bottom: number } => {
  const tall = block.linesPerPage * block.fontSizeRatio * LINE_HEIGHT
  switch (block.edge) {
    case "top":
      return { top: block.marginRatio, bottom: block.marginRatio + tall }
    case "bottom":
      return { top: 1 - block.marginRatio - tall, bottom: 1 - block.marginRatio }
    case "centre":
      return { top: 0.5 - tall / 2, bottom: 0.5 + tall / 2 }
  }
}

/**
 * The bands a block reaches into where the person placed it (its position and margin), before the
 * export moves it clear of them. Columns are left out: a person places a block up or down only, and
 * the export keeps every line clear of a column wherever the block is.
 */
export const zonesEntered = (block: CaptionBlock, platform: Platform, width: number, height: number): ReadonlyArray<SafeZone> => {
  const { top, bottom } = blockExtent(block)
  return zonesOver(platform, width, height).filter((zone) => isBand(zone) && top < zone.y + zone.height && bottom > zone.y)
}
