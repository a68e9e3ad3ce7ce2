// Caption pages + a caption style -> an ASS script for libass, sized to the output picture.
import { type CaptionAnimation, type CaptionLine, type CaptionPage, type CaptionStyle, emojiWordOf, placementOf, singleLine, type TimedWord } from "../../domain/captions.ts"
import type { CaptionHook } from "../../domain/caption-hook.ts"
import type { RenderFormat } from "../../domain/rules.ts"
import { type Platform, type SafeInsets, safeInsets } from "../../domain/safe-zones.ts"

export interface AssRequest {
  readonly pages: ReadonlyArray<CaptionPage>
  readonly style: CaptionStyle
  readonly width: number
  readonly height: number
  /** Greenscreen uses the same styles: the engine paints the background. */
  readonly format: RenderFormat
  readonly hook?: CaptionHook | null | undefined
  /** The app whose overlays the captions and the hook keep out of. */
  readonly platform?: Platform | undefined
  /**
   * How wide a text is in the captions' font: lines with an emoji keep room for it beside them (drawn
   * over the captions as a picture, see `emojiSpots`). Left out: no emoji are drawn.
   */
  readonly measure?: TextMeasure | undefined
}

/** The width in pixels of `text` set in `family` (its bold face where `bold`) at the ASS font size `size`. */
export type TextMeasure = (text: string, font: { readonly family: string; readonly bold: boolean; readonly size: number }) => number

/** A page ending closer than this to the next one stays up until it starts, so captions don't flicker. */
const BRIDGE_SECONDS = 0.3
const POP_SCALE = 112

/** #RRGGBB -> &HAABBGGRR (opaque), the byte order ASS colours use. */
export const assColour = (hex: string): string => `&H00${bgr(hex)}`
/** A drop shadow at 60% opacity (ASS alpha counts transparency: 0x66 of 0xFF). */
const shadowColour = (hex: string): string => `&H66${bgr(hex)}`
const bgr = (hex: string): string => `${hex.slice(5, 7)}${hex.slice(3, 5)}${hex.slice(1, 3)}`.toUpperCase()
const inlineColour = (hex: string): string => `&H${bgr(hex)}&`

/** H:MM:SS.cc, the centisecond clock of ASS. */
const assTime = (seconds: number): string => {
  const cs = Math.max(0, Math.round(seconds * 100))
  const h = Math.floor(cs / 360_000)
  const m = Math.floor((cs % 360_000) / 6000)
  const s = Math.floor((cs % 6000) / 100)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${h}:${two(m)}:${two(s)}.${two(cs % 100)}`
}

/**
 * Words are literal text: braces would open override blocks and a backslash could form \N, \h or
 * \{ with the next character, so braces are escaped (libass reads \{ and \} as literal) and a
 * word joiner (invisible) follows every backslash. A line break would end the Dialogue line.
 */
export const escapeAssText = (text: string): string =>
  singleLine(text)
    .replace(/\\/g, "\\\u2060")
    .replace(/[{}]/g, (brace) => `\\${brace}`)

interface Placement {
  readonly alignment: number
  readonly marginL: number
  readonly marginR: number
  readonly marginV: number
}

/** Room kept between a block and an app's overlay. */
const OVERLAY_GAP = 0.015
const SIDE_MARGIN = 0.06

/** How far from an edge a block keeps, as a fraction: `margin`, or farther when an overlay sits on that edge. */
const clear = (margin: number, inset: number): number => Math.max(margin, inset > 0 ? inset + OVERLAY_GAP : 0)

/** The side margins: 6% of the width, more where an overlay sits on that side. */
const sideMargins = (insets: SafeInsets, width: number): Pick<Placement, "marginL" | "marginR"> => ({
  marginL: Math.round(width * clear(SIDE_MARGIN, insets.left)),
  marginR: Math.round(width * clear(SIDE_MARGIN, insets.right))
})

/** ASS numpad alignment: 2 bottom centre, 5 middle centre, 8 top centre. A block on an edge stays clear of that edge's overlay. */
const placement = (style: CaptionStyle, width: number, height: number, insets: SafeInsets): Placement => {
  const { edge, marginRatio } = placementOf(style)
  return {
    alignment: edge === "bottom" ? 2 : edge === "top" ? 8 : 5,
    ...sideMargins(insets, width),
    marginV: Math.round(height * clear(marginRatio, edge === "bottom" ? insets.bottom : edge === "top" ? insets.top : 0))
  }
}

interface Metrics {
  readonly fontSize: number
  /** Outline width, or the padding of the opaque box. */
  readonly border: number
  readonly blur: number
  readonly shadow: number
}

const metrics = (style: CaptionStyle, height: number): Metrics => {
  const fontSize = Math.max(1, Math.round(style.fontSizeRatio * height))
  const outline = style.outlineRatio * fontSize
  // An opaque box needs some padding even when the style has no outline; a glow needs a wide, soft edge.
  const border = style.boxColor !== null ? Math.max(outline, fontSize * 0.2) : style.glow ? Math.max(outline, fontSize * 0.12) : outline
  return sized(style, fontSize, border)
}

/** A block's metrics at its font size and border: a glow's blur follows the border, a shadow the size. */
const sized = (style: CaptionStyle, fontSize: number, border: number): Metrics => ({
  fontSize,
  border: round1(border),
  blur: style.glow ? round1(Math.max(1, border * 0.8)) : 0,
  shadow: round1((style.shadowRatio ?? 0) * fontSize)
})

const round1 = (n: number): number => Math.round(n * 10) / 10

const STYLE_FORMAT =
  "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding"

interface StyleLine {
  readonly name: string
  readonly primary: string
  readonly secondary: string
  readonly outlineColour: string
  readonly opaqueBox: boolean
  readonly border: number
}

/** Style fields are comma separated, one style a line: a value keeps neither, whatever was saved before the rules. */
const styleField = (value: string | number): string => singleLine(String(value)).replace(/,/g, " ")

const styleLine = (s: StyleLine, style: CaptionStyle, m: Metrics, p: Placement): string =>
  `Style: ${[
    s.name,
    style.fontFamily,
    m.fontSize,
    assColour(s.primary),
    assColour(s.secondary),
    assColour(s.outlineColour),
    // The back colour draws the shadow (and a box's shadow); without one it matches the outline, as before.
    m.shadow > 0 ? shadowColour(style.shadowColor ?? "#000000") : assColour(s.outlineColour),
    style.bold ? -1 : 0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    s.opaqueBox ? 3 : 1,
    s.border,
    m.shadow,
    p.alignment,
    p.marginL,
    p.marginR,
    p.marginV,
    1
  ].map(styleField).join(",")}`

const dialogue = (layer: number, start: number, end: number, styleName: string, text: string): string =>
  `Dialogue: ${layer},${assTime(start)},${assTime(end)},${styleName},,0,0,0,,${text}`

/** When a page leaves the screen: its last word's end, or the next page's start when the gap is short. */
const pageEnds = (pages: ReadonlyArray<CaptionPage>): ReadonlyArray<number> =>
  pages.map((page, i) => {
    const next = pages[i + 1]
    return next !== undefined && next.start > page.end && next.start - page.end < BRIDGE_SECONDS ? next.start : page.end
  })

const pageWords = (page: CaptionPage): ReadonlyArray<TimedWord> => page.lines.flatMap((line) => line.words)

/** One interval per word: from its start to the next word's start (the last one to the page's end). */
const wordIntervals = (page: CaptionPage, end: number): ReadonlyArray<{ start: number; end: number }> => {
  const words = pageWords(page)
  return words.map((word, i) => ({ start: word.start, end: words[i + 1]?.start ?? end }))
}

/** Events shorter than the ASS clock's centisecond would vanish or overlap their neighbours. */
const lasts = (start: number, end: number): boolean => Math.round(end * 100) > Math.round(start * 100)

/** An event being written: when it shows, and where its page starts and ends (entrances and exits play there). */
interface EventSpan {
  readonly page: CaptionPage
  readonly start: number
  readonly end: number
  readonly pageStart: number
  readonly pageEnd: number
}

/** A word as an event shows it. */
interface ShownWord {
  readonly word: TimedWord
  /** Its text with the style's case, not yet escaped. */
  readonly text: string
  /** Its index in the page. */
  readonly index: number
}

/** Milliseconds, the unit of \t and \fad. */
const MOTION_MS = { entrance: 180, exit: 140, pop: 140, bounce: 320, shake: 280, pulse: 600, letter: 45 } as const
/** How much larger than at rest the animations draw a word at their peak (pop overshoots, bounce jumps). */
const PEAK = { pop: 1.1, bounce: 1.3 } as const
const SLIDE_RATIO = 0.04

/** What a word's animation may change; the highlight box's layer never hides a word (its alpha is the highlight's). */
interface MotionRest {
  /** The word's scale at rest, in percent. */
  readonly scale: number
  readonly canHide: boolean
  /** Whether this word moves (shake moves emphasised words only, once any word is). */
  readonly shakes?: boolean
}

/** Emphasised words are this much larger unless the style says. */
const EMPHASIS_SCALE = 1.2

const ms = (seconds: number): number => Math.round(seconds * 1000)
const pct = (scale: number, factor: number): number => Math.round(scale * factor)
const fsc = (scale: number): string => `\\fscx${scale}\\fscy${scale}`

/**
 * Override tags that start a word's animation `at` ms into its event, or (at < 0: spoken before the
 * event began) put it at rest. Inline overrides carry on to the words after, so every animated word
 * sets each property its animation touches.
 */
const motionTags = (animation: CaptionAnimation, at: number, rest: MotionRest, style: CaptionStyle, m: Metrics): string => {
  const r = rest.scale
  const spoken = at < 0
  switch (animation) {
    case "none":
    case "fade":
    case "slide-up":
    case "typewriter":
      return ""
    case "pop": {
      const shown = rest.canHide ? "\\alpha&H00&" : ""
      if (spoken) return `${shown}${fsc(r)}`
      const peak = at + Math.round(MOTION_MS.pop * 0.7)
      const appear = rest.canHide ? `\\alpha&HFF&\\t(${at},${at + 1},\\alpha&H00&)` : ""
      return `${appear}${fsc(pct(r, 0.5))}\\t(${at},${peak},${fsc(pct(r, PEAK.pop))})\\t(${peak},${at + MOTION_MS.pop},${fsc(r)})`
    }
    case "bounce": {
      if (spoken) return fsc(r)
      const b = MOTION_MS.bounce
      const up = at + Math.round(b * 0.35)
      const down = at + Math.round(b * 0.7)
      return `${fsc(r)}\\t(${at},${up},${fsc(pct(r, PEAK.bounce))})\\t(${up},${down},${fsc(pct(r, 0.92))})\\t(${down},${at + b},${fsc(r)})`
    }
    case "glow-pulse": {
      const restTags = `\\3c${inlineColour(style.boxColor ?? style.outlineColor)}\\bord${m.border}\\blur${m.blur}`
      if (spoken) return restTags
      const half = at + MOTION_MS.pulse / 2
      const wide = round1(Math.max(m.border * 1.8, m.fontSize * 0.1))
      return `${restTags}\\t(${at},${half},\\3c${inlineColour(style.highlightColor)}\\bord${wide}\\blur${round1(wide * 0.5)})\\t(${half},${at + MOTION_MS.pulse},${restTags})`
    }
    case "shake": {
      if (spoken || rest.shakes === false) return "\\frz0"
      const s = MOTION_MS.shake
      const at1 = at + Math.round(s * 0.2)
      const at2 = at + Math.round(s * 0.45)
      const at3 = at + Math.round(s * 0.7)
      return `\\frz0\\t(${at},${at1},\\frz-6)\\t(${at1},${at2},\\frz6)\\t(${at2},${at3},\\frz-4)\\t(${at3},${at + s},\\frz0)`
    }
  }
}

/** Typewriter: each letter appears in turn over the first part of the word's time; a word spoken before the event shows whole. */
const typedLetters = (shown: ShownWord, at: number, canHide: boolean): string => {
  if (!canHide) return escapeAssText(shown.text)
  if (at < 0) return `{\\alpha&H00&}${escapeAssText(shown.text)}`
  const letters = Array.from(singleLine(shown.text))
  const step = Math.min(MOTION_MS.letter, Math.floor(ms(shown.word.end - shown.word.start) * 0.7 / Math.max(1, letters.length)))
  return letters
    .map((letter, k) => `{\\alpha&HFF&\\t(${at + k * step},${at + k * step + 1},\\alpha&H00&)}${escapeAssText(letter)}`)
    .join("")
}

/** Where the block's alignment point sits: what \move needs, since it replaces the margins. */
const anchor = (p: Placement, width: number, height: number): { readonly x: number; readonly y: number } => ({
  x: Math.round((p.marginL + width - p.marginR) / 2),
  y: p.alignment === 2 ? height - p.marginV : p.alignment === 8 ? p.marginV : Math.round(height / 2)
})

/** Rising into place at `at` over the entrance's time: what slide-up does to a page and to the hook. */
const slideIn = (at: { readonly x: number; readonly y: number }, height: number): string =>
  `\\move(${at.x},${at.y + Math.round(height * SLIDE_RATIO)},${at.x},${at.y},0,${MOTION_MS.entrance})`

/** Tags for the whole event: a page's entrance where the event starts with its page, its exit where it ends with it. */
const entranceTags = (animation: CaptionAnimation, span: EventSpan, at: { readonly x: number; readonly y: number }, height: number): string => {
  const entering = Math.abs(span.start - span.pageStart) < 0.005
  const leaving = Math.abs(span.end - span.pageEnd) < 0.005
  switch (animation) {
    case "fade": {
      const fadeIn = entering ? MOTION_MS.entrance : 0
      const fadeOut = leaving ? MOTION_MS.exit : 0
      return fadeIn + fadeOut > 0 ? `\\fad(${fadeIn},${fadeOut})` : ""
    }
    case "slide-up":
      return entering
        ? `${slideIn(at, height)}\\fad(${MOTION_MS.entrance},0)`
        : ""
    default:
      return ""
  }
}

/** The page's lines (joined by \N), each word as `decorate` writes it. */
const pageText = (
  page: CaptionPage,
  uppercase: boolean,
  decorate: (shown: ShownWord) => string,
  after: (line: CaptionLine) => string
): string => {
  let index = 0
  return page.lines
    .map((line) => line.words.map((word) => decorate({ word, text: uppercase ? word.text.toUpperCase() : word.text, index: index++ })).join(" ") + after(line))
    .join("\\N")
}

/** An emoji beside its line: a square of this many font sizes, this far from the line's last letter. */
const EMOJI = { size: 1.25, gap: 0.25 } as const

/**
 * The room an emoji takes at the end of its line: an invisible drawing as wide as the gap and the emoji
 * (one pixel high, so the line keeps its height), at rest scale whatever the last word's animation
 * does, so libass centres the line and its emoji together.
 */
const emojiRoom = (room: number): string =>
  `{\\alpha&HFF&\\fscx100\\fscy100\\frz0\\p1}m 0 0 l ${room} 0 ${room} 1 0 1{\\p0\\alpha&H00&}`

/** Where an emoji is drawn over the picture, and when: from its word being spoken to its page leaving. */
export interface EmojiSpot {
  readonly emoji: string
  readonly start: number
  readonly end: number
  /** The square's top-left corner and side, in pixels. */
  readonly x: number
  readonly y: number
  readonly size: number
}

/** A line with its emoji: its text's width and the room beside it, as libass lays them out at rest. */
interface EmojiLine {
  readonly emoji: string
  /** The emoji's word: the emoji appears as it is spoken. */
  readonly word: TimedWord
  readonly textWidth: number
  readonly size: number
  /** Kept at the end of the line for the emoji; 0: the emoji goes above or below the block instead. */
  readonly room: number
}

/** The scale of each word of a line at rest, as a fraction: emphasised words are larger. */
const restScales = (line: CaptionLine, style: CaptionStyle): ReadonlyArray<number> =>
  line.words.map((word) => (word.emphasis === true ? Math.round(100 * (style.emphasisScale ?? EMPHASIS_SCALE)) / 100 : 1))

/**
 * Each line with an emoji: its text's width (the sum of its words', each at its scale, and spaces) and
 * the room it keeps for the emoji beside it, 0 where the line and the emoji would not fit between the margins.
 */
const emojiLines = (pages: ReadonlyArray<CaptionPage>, style: CaptionStyle, m: Metrics, p: Placement, width: number, measure: TextMeasure | undefined) => {
  const lines = new Map<CaptionLine, EmojiLine>()
  if (measure === undefined) return lines
  const font = { family: style.fontFamily, bold: style.bold, size: m.fontSize }
  const space = measure(" ", font)
  const size = Math.round(m.fontSize * EMOJI.size)
  const room = size + Math.round(m.fontSize * EMOJI.gap)
  // A spoken word drawn larger widens its centred line by as much on each side: the emoji keeps clear of that too.
  const animation = style.animation ?? "none"
  const peak = (style.highlight === "word-pop" ? POP_SCALE / 100 : 1) * (animation === "pop" ? PEAK.pop : animation === "bounce" ? PEAK.bounce : 1)
  for (const line of pages.flatMap((page) => page.lines)) {
    const word = emojiWordOf(line)
    const emoji = word?.emoji
    if (word === undefined || emoji === undefined) continue
    const scales = restScales(line, style)
    const widths = line.words.map((w, i) => measure(style.uppercase ? w.text.toUpperCase() : w.text, font) * scales[i]!)
    const textWidth = widths.reduce((sum, w) => sum + w, 0) + space * (line.words.length - 1)
    const growth = Math.round(((peak - 1) * Math.max(...widths)) / 2)
    // A line too wide for its emoji beside it between the margins keeps no room (libass would wrap it).
    const beside = textWidth + room + growth <= width - p.marginL - p.marginR
    lines.set(line, { emoji, word, textWidth, size, room: beside ? room + growth : 0 })
  }
  return lines
}

/**
 * Where each line's emoji goes: at the end of the room its line keeps, the line and room centred
 * together; vertically centred on the line, the block's lines stacked as libass stacks them (a line as
 * high as its font size times its largest word's scale). A line with no room keeps its emoji above or
 * below the block, where that is on the picture and out of the platform's top and bottom bands.
 */
export const emojiSpots = (request: AssRequest): ReadonlyArray<EmojiSpot> => {
  const { pages, style, width, height } = request
  const m = metrics(style, height)
  const insets = safeInsets(request.platform ?? "none", width, height)
  const p = placement(style, width, height, insets)
  const fitting = emojiLines(pages, style, m, p, width, request.measure)
  if (fitting.size === 0) return []
  // Above or below the block an emoji stays on the picture and out of the app's top and bottom bands.
  const clear = { top: insets.top * height, bottom: height * (1 - insets.bottom) }
  const centre = anchor(p, width, height).x
  const ends = pageEnds(pages)
  return pages.flatMap((page, i) => {
    const heights = page.lines.map((line) => m.fontSize * Math.max(...restScales(line, style)))
    const total = heights.reduce((sum, h) => sum + h, 0)
    const blockTop = p.alignment === 2 ? height - p.marginV - total : p.alignment === 8 ? p.marginV : (height - total) / 2
    let top = blockTop
    return page.lines.flatMap((line, k): ReadonlyArray<EmojiSpot> => {
      const lineTop = top
      top += heights[k]!
      const spot = fitting.get(line)
      const start = Math.max(page.start, spot?.word.start ?? 0)
      if (spot === undefined || !lasts(start, ends[i]!)) return []
      const shown = { emoji: spot.emoji, start, end: ends[i]!, size: spot.size }
      if (spot.room > 0) {
        const left = centre - (spot.textWidth + spot.room) / 2
        return [{ ...shown, x: Math.round(left + spot.textWidth + spot.room - spot.size), y: Math.round(lineTop + heights[k]! / 2 - spot.size / 2) }]
      }
      // No room beside it: the first line's emoji sits centred above the block, the last line's below it,
      // where the picture has room; a middle line's has none.
      const gap = Math.round(m.fontSize * EMOJI.gap)
      const y = k === 0 ? Math.round(blockTop - gap - spot.size) : k === page.lines.length - 1 ? Math.round(blockTop + total + gap) : null
      return y === null || y < clear.top || y + spot.size > clear.bottom ? [] : [{ ...shown, x: Math.round(centre - spot.size / 2), y }]
    })
  })
}

/** The hook title: larger than the captions, never tiny nor huge, at least this far from the top. */
const HOOK_SIZE = { factor: 1.3, min: 0.05, max: 0.09 } as const
const HOOK_TOP = 0.1

interface HookLook {
  readonly line: StyleLine
  readonly metrics: Metrics
  readonly placement: Placement
}

/** The template's look for the hook: its font, colours and box or outline (a thin outline at least, to read over any picture). */
const hookStyle = (style: CaptionStyle, width: number, height: number, insets: SafeInsets): HookLook => {
  const fontSize = Math.round(height * Math.min(HOOK_SIZE.max, Math.max(HOOK_SIZE.min, style.fontSizeRatio * HOOK_SIZE.factor)))
  const boxed = style.boxColor !== null
  const metrics = sized(style, fontSize, boxed ? fontSize * 0.2 : Math.max(style.outlineRatio, 0.06) * fontSize)
  return {
    line: { name: "Hook", primary: style.textColor, secondary: style.textColor, outlineColour: style.boxColor ?? style.outlineColor, opaqueBox: boxed, border: metrics.border },
    metrics,
    placement: {
      alignment: 8,
      ...sideMargins(insets, width),
      marginV: Math.round(height * clear(HOOK_TOP, insets.top))
    }
  }
}

/** The hook from 0 to its seconds, entering as the template's pages do and fading out. */
const hookEvent = (hook: CaptionHook, style: CaptionStyle, look: HookLook, width: number, height: number): string => {
  const animation = style.animation ?? "none"
  const at = anchor(look.placement, width, height)
  const fade = `\\fad(${MOTION_MS.entrance},${MOTION_MS.exit * 2})`
  const entrance = animation === "slide-up"
    ? slideIn(at, height)
    : animation === "pop" || animation === "bounce"
    ? `${fsc(60)}\\t(0,${MOTION_MS.bounce},${fsc(100)})`
    : ""
  const text = escapeAssText(style.uppercase ? hook.text.toUpperCase() : hook.text)
  return dialogue(2, 0, hook.seconds, look.line.name, `{${look.metrics.blur > 0 ? `\\blur${look.metrics.blur}` : ""}${entrance}${fade}}${text}`)
}

/** One event per spoken word of the page (too-short intervals dropped), given the word's index. */
const perSpokenWord = (
  page: CaptionPage,
  end: number,
  event: (interval: { start: number; end: number }, active: number) => string
): Array<string> =>
  wordIntervals(page, end)
    .map((interval, active) => ({ interval, active }))
    .filter(({ interval }) => lasts(interval.start, interval.end))
    .map(({ interval, active }) => event(interval, active))

export const assSubtitles = (request: AssRequest): string => {
  const { pages, style, width, height } = request
  const m = metrics(style, height)
  const insets = safeInsets(request.platform ?? "none", width, height)
  const p = placement(style, width, height, insets)
  const animation = style.animation ?? "none"
  const origin = anchor(p, width, height)
  const karaoke = style.highlight === "karaoke-fill"
  const base: StyleLine = {
    name: "Caption",
    // \kf sweeps from the secondary colour to the primary one.
    primary: karaoke ? style.highlightColor : style.textColor,
    secondary: style.textColor,
    outlineColour: style.boxColor ?? style.outlineColor,
    opaqueBox: style.boxColor !== null,
    border: m.border
  }
  // box-word draws the active word again on a layer above, inside an opaque box of the highlight colour.
  const wordBox: StyleLine = {
    name: "WordBox",
    primary: style.textColor,
    secondary: style.textColor,
    outlineColour: style.highlightColor,
    opaqueBox: true,
    border: round1(Math.max(m.border, m.fontSize * 0.15))
  }
  const hook = request.hook ?? null
  const hookLook = hookStyle(style, width, height, insets)
  const styles: ReadonlyArray<readonly [StyleLine, Metrics, Placement]> = [
    [base, m, p],
    ...(style.highlight === "box-word" ? [[wordBox, m, p] as const] : []),
    ...(hook === null ? [] : [[hookLook.line, hookLook.metrics, hookLook.placement] as const])
  ]

  // "Shake on emphasis": with emphasised words in the track only they shake, else every spoken word does.
  const emphasisInUse = pages.some((page) => page.lines.some((line) => line.words.some((w) => w.emphasis === true)))
  const emphasisScale = Math.round(100 * (style.emphasisScale ?? EMPHASIS_SCALE))
  const emphasisColour = inlineColour(style.emphasisColor ?? style.highlightColor)

  /**
   * A word's text with its animation, timed from the event's start; an emphasised one in the emphasis
   * size (on every layer, so layers lay out alike) and, where `colour`, its colour.
   */
  const moving = (shown: ShownWord, span: EventSpan, rest: MotionRest & { readonly colour: boolean }): string => {
    const emphasised = shown.word.emphasis === true
    const scale = emphasised ? Math.max(rest.scale, emphasisScale) : rest.scale
    const at = ms(shown.word.start - span.start)
    const text = animation === "typewriter" ? typedLetters(shown, at, rest.canHide) : escapeAssText(shown.text)
    const look = emphasised ? `${rest.colour ? `\\c${emphasisColour}` : ""}${fsc(scale)}` : ""
    const tags = look + motionTags(animation, at, { ...rest, scale, shakes: !emphasisInUse || emphasised }, style, m)
    const close = emphasised ? `{${rest.colour ? `\\c${inlineColour(base.primary)}` : ""}${fsc(100)}}` : ""
    return (tags === "" ? text : `{${tags}}${text}`) + close
  }

  const emoji = emojiLines(pages, style, m, p, width, request.measure)
  const roomFor = (line: CaptionLine): string => {
    const spot = emoji.get(line)
    return spot === undefined || spot.room === 0 ? "" : emojiRoom(spot.room)
  }

  /** An event's text: the event-wide tags (glow, entrance), then the page's words as `decorate` writes them, each line's emoji room after it. */
  const eventText = (span: EventSpan, decorate: (shown: ShownWord) => string): string => {
    const tags = `${m.blur > 0 ? `\\blur${m.blur}` : ""}${entranceTags(animation, span, origin, height)}`
    return (tags === "" ? "" : `{${tags}}`) + pageText(span.page, style.uppercase, decorate, roomFor)
  }

  const ends = pageEnds(pages)
  const events = pages.flatMap((page, pageIndex): ReadonlyArray<string> => {
    const end = ends[pageIndex]!
    const span = (start: number, stop: number): EventSpan => ({ page, start, end: stop, pageStart: page.start, pageEnd: end })
    const still = { scale: 100, canHide: true, colour: true }
    const wholePage = (decorate: (shown: ShownWord, s: EventSpan) => string) => {
      const s = span(page.start, end)
      return lasts(page.start, end) ? [dialogue(0, page.start, end, base.name, eventText(s, (shown) => decorate(shown, s)))] : []
    }
    switch (style.highlight) {
      case "none":
        return wholePage((shown, s) => moving(shown, s, still))
      case "karaoke-fill": {
        // Each word sweeps over its own duration; the gap to the next word rides on the space after it.
        const words = pageWords(page)
        const cs = (t: number) => Math.round((t - page.start) * 100)
        return wholePage((shown, s) => {
          const w = shown.word
          const next = words[shown.index + 1]?.start ?? end
          const sweep = Math.max(0, cs(w.end) - cs(w.start))
          const hold = Math.max(0, cs(next) - cs(w.end))
          return `{\\kf${sweep}}${moving(shown, s, still)}{\\k${hold}}`
        })
      }
      case "word-pop":
        return perSpokenWord(page, end, (interval, active) => {
          const s = span(interval.start, interval.end)
          return dialogue(0, interval.start, interval.end, base.name, eventText(s, (shown) =>
            shown.index === active
              ? `{\\c${inlineColour(style.highlightColor)}${fsc(POP_SCALE)}}${moving(shown, s, { scale: POP_SCALE, canHide: true, colour: false })}{\\c${inlineColour(style.textColor)}${fsc(100)}}`
              : moving(shown, s, still)))
        })
      case "box-word": {
        const page0 = wholePage((shown, s) => moving(shown, s, still))
        // The other words are laid out too (fully transparent) so the active word lands exactly on its place.
        const boxes = perSpokenWord(page, end, (interval, active) => {
          const s = span(interval.start, interval.end)
          return dialogue(1, interval.start, interval.end, wordBox.name, eventText(s, (shown) =>
            shown.index === active
              ? `{\\alpha&H00&}${moving(shown, s, { scale: 100, canHide: false, colour: false })}{\\alpha&HFF&}`
              : `{\\alpha&HFF&}${moving(shown, s, { scale: 100, canHide: false, colour: false })}`))
        })
        return [...page0, ...boxes]
      }
    }
  })

  return [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    // 0 = lines break where the layout put \N, and libass wraps a line only if it is wider than the
    // room between the margins (a long word in a large font): never off the picture or into an overlay.
    "WrapStyle: 0",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    STYLE_FORMAT,
    ...styles.map(([line, metricsOf, placed]) => styleLine(line, style, metricsOf, placed)),
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ...events,
    ...(hook === null ? [] : [hookEvent(hook, style, hookLook, width, height)]),
    ""
  ].join("\n")
}
