// Caption pages + a caption style -> an ASS script for libass, sized to the output picture.
import { type CaptionPage, type CaptionStyle, placementOf, singleLine, type TimedWord } from "../../domain/captions.ts"
import type { RenderFormat } from "../../domain/rules.ts"

export interface AssRequest {
  readonly pages: ReadonlyArray<CaptionPage>
  readonly style: CaptionStyle
  readonly width: number
  readonly height: number
  /** Greenscreen uses the same styles: the engine paints the background. */
  readonly format: RenderFormat
}

/** A page ending closer than this to the next one stays up until it starts, so captions don't flicker. */
const BRIDGE_SECONDS = 0.3
const POP_SCALE = 112

/** #RRGGBB -> &HAABBGGRR (opaque), the byte order ASS colours use. */
export const assColour = (hex: string): string => `&H00${bgr(hex)}`
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
  readonly marginV: number
}

/** ASS numpad alignment: 2 bottom centre, 5 middle centre, 8 top centre. */
const placement = (style: CaptionStyle, height: number): Placement => {
  const { edge, marginRatio } = placementOf(style)
  return { alignment: edge === "bottom" ? 2 : edge === "top" ? 8 : 5, marginV: Math.round(height * marginRatio) }
}

interface Metrics {
  readonly fontSize: number
  /** Outline width, or the padding of the opaque box. */
  readonly border: number
  readonly blur: number
}

const metrics = (style: CaptionStyle, height: number): Metrics => {
  const fontSize = Math.max(1, Math.round(style.fontSizeRatio * height))
  const outline = style.outlineRatio * fontSize
  // An opaque box needs some padding even when the style has no outline; a glow needs a wide, soft edge.
  const border = style.boxColor !== null ? Math.max(outline, fontSize * 0.2) : style.glow ? Math.max(outline, fontSize * 0.12) : outline
  return { fontSize, border: round1(border), blur: style.glow ? round1(Math.max(1, border * 0.8)) : 0 }
}

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

const styleLine = (s: StyleLine, style: CaptionStyle, m: Metrics, p: Placement, marginH: number): string =>
  `Style: ${[
    s.name,
    style.fontFamily,
    m.fontSize,
    assColour(s.primary),
    assColour(s.secondary),
    assColour(s.outlineColour),
    assColour(s.outlineColour),
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
    0,
    p.alignment,
    marginH,
    marginH,
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

/** Renders a page's lines (joined by \N), decorating each word by its index in the page. */
const pageText = (
  page: CaptionPage,
  uppercase: boolean,
  decorate: (text: string, index: number) => string
): string => {
  let index = 0
  return page.lines
    .map((line) =>
      line.words
        .map((word) => {
          const text = escapeAssText(uppercase ? word.text.toUpperCase() : word.text)
          return decorate(text, index++)
        })
        .join(" ")
    )
    .join("\\N")
}

const pageWords = (page: CaptionPage): ReadonlyArray<TimedWord> => page.lines.flatMap((line) => line.words)

/** One interval per word: from its start to the next word's start (the last one to the page's end). */
const wordIntervals = (page: CaptionPage, end: number): ReadonlyArray<{ start: number; end: number }> => {
  const words = pageWords(page)
  return words.map((word, i) => ({ start: word.start, end: words[i + 1]?.start ?? end }))
}

/** Events shorter than the ASS clock's centisecond would vanish or overlap their neighbours. */
const lasts = (start: number, end: number): boolean => Math.round(end * 100) > Math.round(start * 100)

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
  const p = placement(style, height)
  const marginH = Math.round(width * 0.06)
  const prefix = m.blur > 0 ? `{\\blur${m.blur}}` : ""
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
  const styles = style.highlight === "box-word" ? [base, wordBox] : [base]

  const ends = pageEnds(pages)
  const events = pages.flatMap((page, pageIndex): ReadonlyArray<string> => {
    const end = ends[pageIndex]!
    const plain = (text: string) => text
    switch (style.highlight) {
      case "none":
        return lasts(page.start, end) ? [dialogue(0, page.start, end, base.name, prefix + pageText(page, style.uppercase, plain))] : []
      case "karaoke-fill": {
        // Each word sweeps over its own duration; the gap to the next word rides on the space after it.
        const words = pageWords(page)
        const cs = (t: number) => Math.round((t - page.start) * 100)
        const text = pageText(page, style.uppercase, (word, i) => {
          const w = words[i]!
          const next = words[i + 1]?.start ?? end
          const sweep = Math.max(0, cs(w.end) - cs(w.start))
          const hold = Math.max(0, cs(next) - cs(w.end))
          return `{\\kf${sweep}}${word}{\\k${hold}}`
        })
        return lasts(page.start, end) ? [dialogue(0, page.start, end, base.name, prefix + text)] : []
      }
      case "word-pop":
        return perSpokenWord(page, end, (interval, active) =>
          dialogue(
            0,
            interval.start,
            interval.end,
            base.name,
            prefix +
              pageText(page, style.uppercase, (word, i) =>
                i === active
                  ? `{\\c${inlineColour(style.highlightColor)}\\fscx${POP_SCALE}\\fscy${POP_SCALE}}${word}{\\c${inlineColour(style.textColor)}\\fscx100\\fscy100}`
                  : word
              )
          ))
      case "box-word": {
        const page0 = lasts(page.start, end)
          ? [dialogue(0, page.start, end, base.name, prefix + pageText(page, style.uppercase, plain))]
          : []
        // The other words are laid out too (fully transparent) so the active word lands exactly on its place.
        const boxes = perSpokenWord(page, end, (interval, active) =>
          dialogue(
            1,
            interval.start,
            interval.end,
            wordBox.name,
            pageText(page, style.uppercase, (word, i) =>
              i === active ? `{\\alpha&H00&}${word}{\\alpha&HFF&}` : `{\\alpha&HFF&}${word}`
            )
          ))
        return [...page0, ...boxes]
      }
    }
  })

  return [
    "[Script Info]",
    "ScriptType: v4.00+",
    `PlayResX: ${width}`,
    `PlayResY: ${height}`,
    // 2 = no automatic wrapping: lines break only where the layout put \N.
    "WrapStyle: 2",
    "ScaledBorderAndShadow: yes",
    "",
    "[V4+ Styles]",
    STYLE_FORMAT,
    ...styles.map((s) => styleLine(s, style, m, p, marginH)),
    "",
    "[Events]",
    "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
    ...events,
    ""
  ].join("\n")
}
