// Message text on a canvas: wrapped to a bubble's width, emoji drawn from the colour emoji font and
// the rest from the text fonts, right-to-left paragraphs laid out from the right. Skia shapes and
// orders each run itself (Arabic joining, mixed-direction runs); splitting off the emoji is needed
// because DejaVu Sans has black-and-white glyphs for many emoji and would win the font fallback.
import type { SKRSContext2D } from "@napi-rs/canvas"

/** Debian's fonts-dejavu-core and fonts-droid-fallback (CJK), as scripts/setup.sh installs them. */
const TEXT_FONTS = "\"DejaVu Sans\", \"Droid Sans Fallback\""
/** Debian's fonts-noto-color-emoji. */
const EMOJI_FONT = "\"Noto Color Emoji\""

const EMOJI = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20e3/u
const STRONG = /\p{L}/u
/** Scripts written without spaces: a line may break before any of their words. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u
const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" })
const words = new Intl.Segmenter(undefined, { granularity: "word" })

export interface TextStyle {
  readonly size: number
  readonly weight: "normal" | "bold"
}

interface Run {
  readonly text: string
  readonly emoji: boolean
  readonly width: number
}

export interface TextLine {
  readonly runs: ReadonlyArray<Run>
  readonly width: number
}

export const fontFor = (style: TextStyle, emoji = false): string =>
  emoji ? `${style.size}px ${EMOJI_FONT}` : `${style.weight} ${style.size}px ${TEXT_FONTS}`

/** A paragraph reads right to left when its first letter is from a right-to-left script. */
export const isRightToLeft = (text: string): boolean => {
  for (const char of text) if (STRONG.test(char)) return RTL.test(char)
  return false
}

const runsOf = (ctx: SKRSContext2D, text: string, style: TextStyle): Array<Run> => {
  const runs: Array<{ text: string; emoji: boolean }> = []
  for (const { segment } of graphemes.segment(text)) {
    const emoji = EMOJI.test(segment)
    const last = runs.at(-1)
    if (last !== undefined && last.emoji === emoji) last.text += segment
    else runs.push({ text: segment, emoji })
  }
  return runs.map((r) => {
    ctx.font = fontFor(style, r.emoji)
    return { ...r, width: ctx.measureText(r.text).width }
  })
}

const lineOf = (ctx: SKRSContext2D, text: string, style: TextStyle): TextLine => {
  const runs = runsOf(ctx, text, style)
  return { runs, width: runs.reduce((sum, r) => sum + r.width, 0) }
}

/** The width of one line of text. */
export const measureLine = (ctx: SKRSContext2D, text: string, style: TextStyle): number => lineOf(ctx, text, style).width

/**
 * Where a line may break: after spaces, and before words of scripts written without spaces (ICU's
 * word boundaries find those); punctuation stays with what it follows ("secret??" is one piece).
 */
const piecesOf = (paragraph: string): Array<string> => {
  const pieces: Array<string> = []
  for (const { segment } of words.segment(paragraph)) {
    const last = pieces.at(-1)
    if (last === undefined || /\s$/.test(last) || UNSPACED.test(segment)) pieces.push(segment)
    else pieces[pieces.length - 1] = last + segment
  }
  return pieces
}

/**
 * Greedy wrapping at the break opportunities above; a piece wider than the line is broken between
 * characters. Newlines in the text start new lines.
 */
export const wrapText = (ctx: SKRSContext2D, text: string, style: TextStyle, maxWidth: number): ReadonlyArray<TextLine> => {
  const lines: Array<TextLine> = []
  for (const paragraph of text.split("\n")) {
    const tokens: Array<string> = []
    for (const segment of piecesOf(paragraph)) {
      if (measureLine(ctx, segment, style) <= maxWidth) tokens.push(segment)
      else for (const g of graphemes.segment(segment)) tokens.push(g.segment)
    }
    let current = ""
    for (const token of tokens) {
      const candidate = current + token
      if (current !== "" && measureLine(ctx, candidate.trimEnd(), style) > maxWidth) {
        lines.push(lineOf(ctx, current.trimEnd(), style))
        current = token.trimStart()
      } else {
        current = candidate
      }
    }
    lines.push(lineOf(ctx, current.trimEnd(), style))
  }
  return lines
}

/**
 * Draws a line on the baseline `y`, from `x` (its left edge, or its right edge for right-to-left
 * text), one run at a time.
 */
export const drawLine = (
  ctx: SKRSContext2D,
  line: TextLine,
  x: number,
  y: number,
  style: TextStyle,
  colour: string,
  rightToLeft: boolean
): void => {
  ctx.fillStyle = colour
  ctx.textBaseline = "alphabetic"
  ctx.direction = rightToLeft ? "rtl" : "ltr"
  ctx.textAlign = rightToLeft ? "right" : "left"
  let at = x
  for (const run of line.runs) {
    ctx.font = fontFor(style, run.emoji)
    ctx.fillText(run.text, at, y)
    at += rightToLeft ? -run.width : run.width
  }
  ctx.direction = "ltr"
  ctx.textAlign = "left"
}
