// Timed words -> caption lines and pages, the caption templates, and the SRT/VTT formats.
import { Schema } from "effect"
import { CaptionHook } from "./caption-hook.ts"
import { HexColour } from "./hex-colour.ts"
import { Platform } from "./safe-zones.ts"

export const TimedWord = Schema.Struct({
  text: Schema.String.annotations({ description: "The word as recognised or spoken." }),
  start: Schema.Number.annotations({ description: "Seconds from the start of the video." }),
  end: Schema.Number.annotations({ description: "Seconds from the start of the video." }),
  confidence: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))).annotations({
    description:
      "How sure the recogniser was of the word, 0-1, where the engine reports it (pocketsphinx does). Absent for words a person typed or a transcript gave."
  }),
  emphasis: Schema.optional(Schema.Boolean).annotations({
    description:
      "true: drawn in the template's emphasis colour and size (chosen with `emphasis: auto`, or set by a person). Left out or false: drawn as the others."
  }),
  emoji: Schema.optional(Schema.String.pipe(
    Schema.filter((text) => isOneEmoji(text), { message: () => "emoji must be one emoji, e.g. 🔥" })
  )).annotations({
    description:
      "An emoji drawn in colour beside the caption line holding this word, appearing as the word is spoken (chosen with `emoji: auto`, or set by a person); a line shows its first word's emoji. Left out: none."
  })
}).annotations({ identifier: "TimedWord" })
export type TimedWord = typeof TimedWord.Type

/** Whether emoji go beside caption lines: the modes of `emoji` (caption-emoji.ts), a template's default among them. */
export const EMOJI_MODES = ["off", "auto"] as const

/**
 * One emoji, nothing else: a pictograph with its variation selector, skin tone, tag letters (a
 * subdivision's flag) or pictographs joined by ZWJ; a flag (two regional indicators); a keycap.
 */
export const isOneEmoji = (text: string): boolean =>
  text.length <= 32 &&
  /^(?:\p{Regional_Indicator}{2}|[0-9#*]\u{FE0F}?\u{20E3}|\p{Extended_Pictographic}(?:[\u{FE0F}\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]|\u{200D}\p{Extended_Pictographic})*)$/u.test(text)

/** The word whose emoji a caption line shows: its first word that has one (its being spoken brings the emoji in). */
export const emojiWordOf = (line: Pick<CaptionLine, "words">): TimedWord | undefined => line.words.find((word) => word.emoji !== undefined)

/** The emoji a caption line shows. */
export const lineEmoji = (line: Pick<CaptionLine, "words">): string | null => emojiWordOf(line)?.emoji ?? null

/** Below this confidence the editor marks a word for a person to check first. */
export const LOW_CONFIDENCE = 0.5

export const CaptionLine = Schema.Struct({
  start: Schema.Number.annotations({ description: "Start of the line's first word, in seconds." }),
  end: Schema.Number.annotations({ description: "End of the line's last word, in seconds." }),
  text: Schema.String.annotations({ description: "The line as shown." }),
  words: Schema.Array(TimedWord).annotations({ description: "The line's words with their times." })
}).annotations({ identifier: "CaptionLine" })
export type CaptionLine = typeof CaptionLine.Type

export const CaptionPage = Schema.Struct({
  start: Schema.Number.annotations({ description: "When the page appears, in seconds." }),
  end: Schema.Number.annotations({ description: "When its last word ends, in seconds." }),
  lines: Schema.Array(CaptionLine).annotations({ description: "Lines shown together on screen." })
}).annotations({ identifier: "CaptionPage" })
export type CaptionPage = typeof CaptionPage.Type

export interface LayoutRules {
  readonly maxCharsPerLine: number
  readonly linesPerPage: number
  /** A silence at least this long ends a page. */
  readonly pauseSeconds: number
}

/** Whether a written word closes its sentence (closing quotes and brackets may follow the mark). */
export const endsSentence = (w: string): boolean => /[.!?…]["')\]]*$/.test(w)
const endsClause = (w: string): boolean => /[,;:]["')\]]*$/.test(w)

const makeLine = (words: ReadonlyArray<TimedWord>): CaptionLine => ({
  start: words[0]!.start,
  end: words[words.length - 1]!.end,
  text: words.map((w) => w.text).join(" "),
  words
})

const makePage = (lines: ReadonlyArray<CaptionLine>): CaptionPage => ({
  start: lines[0]!.start,
  end: lines[lines.length - 1]!.end,
  lines
})

/** Whether a pause or a sentence's end between two words closes the page. */
const closesPage = (previous: TimedWord, next: TimedWord, rules: LayoutRules): boolean =>
  next.start - previous.end >= rules.pauseSeconds || endsSentence(previous.text)

/**
 * Groups words into lines (at most `maxCharsPerLine`, a single long word alone) and lines into
 * pages. A pause or the end of a sentence closes the page; a clause break closes the line.
 * Every word appears exactly once, in order. With `lineStarts` (the indexes of the words that begin
 * a line, as a person set them in the editor) lines break there and only there, and pages close as
 * usual: after `linesPerPage` lines, at a pause or at a sentence's end.
 */
export const layoutCaptions = (
  words: ReadonlyArray<TimedWord>,
  rules: LayoutRules,
  lineStarts: ReadonlyArray<number> | null = null
): ReadonlyArray<CaptionPage> => (lineStarts === null ? autoLayout(words, rules) : manualLayout(words, rules, lineStarts))

const manualLayout = (words: ReadonlyArray<TimedWord>, rules: LayoutRules, lineStarts: ReadonlyArray<number>): ReadonlyArray<CaptionPage> => {
  const starts = [...new Set([0, ...lineStarts])].filter((i) => i >= 0 && i < words.length).sort((a, b) => a - b)
  const lines = starts.map((start, k) => makeLine(words.slice(start, starts[k + 1] ?? words.length)))
  const pages: Array<CaptionPage> = []
  let page: Array<CaptionLine> = []
  lines.forEach((line) => {
    const last = page.at(-1)?.words.at(-1)
    if (last !== undefined && (page.length >= rules.linesPerPage || closesPage(last, line.words[0]!, rules))) {
      pages.push(makePage(page))
      page = []
    }
    page.push(line)
  })
  if (page.length > 0) pages.push(makePage(page))
  return pages
}

const autoLayout = (words: ReadonlyArray<TimedWord>, rules: LayoutRules): ReadonlyArray<CaptionPage> => {
  const pages: Array<CaptionPage> = []
  let lines: Array<CaptionLine> = []
  let line: Array<TimedWord> = []
  let chars = 0
  const closeLine = () => {
    if (line.length > 0) lines.push(makeLine(line))
    line = []
    chars = 0
  }
  const closePage = () => {
    closeLine()
    if (lines.length > 0) pages.push(makePage(lines))
    lines = []
  }
  words.forEach((word, i) => {
    const previous = words[i - 1]
    if (previous !== undefined) {
      if (closesPage(previous, word, rules)) closePage()
      else if (endsClause(previous.text)) closeLine()
    }
    const added = chars === 0 ? word.text.length : chars + 1 + word.text.length
    if (chars > 0 && added > rules.maxCharsPerLine) {
      closeLine()
      if (lines.length >= rules.linesPerPage) closePage()
    }
    if (line.length === 0 && lines.length >= rules.linesPerPage) closePage()
    line.push(word)
    chars = chars === 0 ? word.text.length : chars + 1 + word.text.length
  })
  closePage()
  return pages
}

export const HighlightMode = Schema.Literal("word-pop", "karaoke-fill", "none", "box-word").annotations({
  description: "How the spoken word stands out: `word-pop` (coloured and enlarged), `karaoke-fill` (colour sweeps through the words), `box-word` (a coloured box behind it), `none`."
})
export type HighlightMode = typeof HighlightMode.Type

export const CaptionAnimation = Schema.Literal("none", "pop", "bounce", "slide-up", "fade", "typewriter", "glow-pulse", "shake").annotations({
  description:
    "How captions move: `pop` (each word appears as it is spoken, scaling in), `bounce` (the spoken word jumps and settles), `slide-up` (each page rises into place), `fade` (pages fade in and out), `typewriter` (letters appear one by one as each word is spoken), `glow-pulse` (the spoken word's glow pulses in the highlight colour), `shake` (the spoken word shakes), `none`. Left out: `none`."
})
export type CaptionAnimation = typeof CaptionAnimation.Type

export const CaptionPosition = Schema.Literal("bottom", "middle", "lower-third", "top").annotations({
  description: "Where the captions sit on the picture."
})

/**
 * A family is written into the ASS script's Style line, where a comma ends the field and a line break
 * starts a new line or section: only names as fontconfig knows them pass, nothing that could ride along.
 */
export const FontFamily = Schema.String.pipe(
  Schema.maxLength(64, { message: () => "fontFamily must be at most 64 characters" }),
  Schema.pattern(/^[A-Za-z0-9]+(?:[ -][A-Za-z0-9]+)*$/, {
    message: () => "fontFamily must be words of letters and digits joined by single spaces or hyphens, e.g. DejaVu Sans"
  })
).annotations({
  description:
    "An installed font family, e.g. `DejaVu Sans`: words of ASCII letters and digits joined by single spaces or hyphens, at most 64 characters (use a font's English family name)."
})

/** Sizes are relative to the video's height so a style fits every output size. */
export const CaptionStyle = Schema.Struct({
  fontFamily: FontFamily,
  fontSizeRatio: Schema.Number.pipe(Schema.between(0.02, 0.12)).annotations({
    description: "Font size as a fraction of the video height."
  }),
  bold: Schema.Boolean.annotations({ description: "Bold type." }),
  uppercase: Schema.Boolean.annotations({ description: "Show the words in capitals." }),
  textColor: HexColour.annotations({ description: "Text colour, #RRGGBB." }),
  highlightColor: HexColour.annotations({ description: "Colour of the spoken word (or its box), #RRGGBB." }),
  outlineColor: HexColour.annotations({ description: "Outline colour, #RRGGBB." }),
  outlineRatio: Schema.Number.pipe(Schema.between(0, 0.2)).annotations({ description: "Outline width / font size." }),
  boxColor: Schema.NullOr(HexColour).annotations({
    description: "Colour of an opaque box behind the lines, #RRGGBB; null for none."
  }),
  shadowRatio: Schema.optional(Schema.Number.pipe(Schema.between(0, 0.2))).annotations({
    description: "A drop shadow's offset / font size, down and to the right; left out or 0 for none."
  }),
  shadowColor: Schema.optional(HexColour).annotations({
    description: "The drop shadow's colour, #RRGGBB, drawn at 60% opacity. Left out: black."
  }),
  emphasisColor: Schema.optional(HexColour).annotations({
    description: "Colour of emphasised words, #RRGGBB. Left out: the highlight colour."
  }),
  emphasisScale: Schema.optional(Schema.Number.pipe(Schema.between(1, 1.6))).annotations({
    description: "Size of emphasised words against the others, 1 to 1.6. Left out: 1.2."
  }),
  glow: Schema.Boolean.annotations({ description: "A soft glow around the letters." }),
  highlight: HighlightMode,
  animation: Schema.optional(CaptionAnimation),
  emoji: Schema.optional(Schema.Literal(...EMOJI_MODES)).annotations({
    description:
      "The `emoji` a video made with this template gets when its create leaves `emoji` out (`auto`: an emoji beside each caption line). Left out: `off`. A video's own setting is what counts afterwards."
  }),
  position: CaptionPosition,
  marginRatio: Schema.optional(Schema.Number.pipe(Schema.between(0, 0.45))).annotations({
    description:
      "How far the block sits from the edge it is placed on (the bottom for `bottom` and `lower-third`, the top for `top`), as a fraction of the video height. Left out: 0.08 for bottom, 0.25 for lower-third, 0.1 for top. Centred (`middle`) captions do not use it."
  }),
  maxCharsPerLine: Schema.Int.pipe(Schema.between(8, 60)).annotations({ description: "Characters a line holds at most." }),
  linesPerPage: Schema.Int.pipe(Schema.between(1, 3)).annotations({ description: "Lines shown at once." })
}).annotations({ identifier: "CaptionStyle", description: "How captions look; sizes scale with the video height." })
export type CaptionStyle = typeof CaptionStyle.Type

/** Some of the style's fields, to lay over a whole style. */
export const PartialCaptionStyle = Schema.partialWith(CaptionStyle, { exact: true })

/** What a render burns: pages laid out in a style, with the project's hook title and the app whose overlays to keep out of. */
export const CaptionTrack = Schema.Struct({
  pages: Schema.Array(CaptionPage),
  style: CaptionStyle,
  hook: Schema.optional(Schema.NullOr(CaptionHook)),
  platform: Schema.optional(Platform)
})
export type CaptionTrack = typeof CaptionTrack.Type

export interface CaptionTemplate {
  readonly id: number
  readonly name: string
  readonly builtIn: boolean
  readonly style: CaptionStyle
}

const base: CaptionStyle = {
  fontFamily: "DejaVu Sans",
  fontSizeRatio: 0.045,
  bold: true,
  uppercase: false,
  textColor: "#FFFFFF",
  highlightColor: "#FFE000",
  outlineColor: "#000000",
  outlineRatio: 0.08,
  boxColor: null,
  glow: false,
  highlight: "word-pop",
  position: "middle",
  maxCharsPerLine: 18,
  linesPerPage: 2
}

/** Built-in templates have negative ids; -1 is the default for a workspace that has used none. */
export const BUILT_IN_TEMPLATES: ReadonlyArray<CaptionTemplate> = [
  { id: -1, name: "Bold pop", builtIn: true, style: { ...base, uppercase: true } },
  {
    id: -2,
    name: "Karaoke fill",
    builtIn: true,
    style: { ...base, highlight: "karaoke-fill", highlightColor: "#3CF0FF", maxCharsPerLine: 24 }
  },
  {
    id: -3,
    name: "Minimal lower third",
    builtIn: true,
    style: {
      ...base,
      bold: false,
      fontSizeRatio: 0.032,
      outlineRatio: 0.05,
      highlight: "none",
      position: "lower-third",
      maxCharsPerLine: 32,
      linesPerPage: 1
    }
  },
  {
    id: -4,
    name: "Boxed",
    builtIn: true,
    style: { ...base, boxColor: "#000000", outlineRatio: 0, highlight: "box-word", highlightColor: "#FF3B6B" }
  },
  {
    id: -5,
    name: "Neon glow",
    builtIn: true,
    style: { ...base, textColor: "#E8FFFF", outlineColor: "#00E5FF", highlightColor: "#FF4FD8", glow: true }
  },
  {
    id: -6,
    name: "Two-line subtitle",
    builtIn: true,
    style: {
      ...base,
      bold: false,
      fontSizeRatio: 0.03,
      outlineRatio: 0.06,
      highlight: "none",
      position: "bottom",
      maxCharsPerLine: 38,
      linesPerPage: 2
    }
  },
  {
    id: -7,
    name: "Montserrat pop",
    builtIn: true,
    style: { ...base, fontFamily: "Montserrat", uppercase: true, outlineRatio: 0.12, animation: "pop", maxCharsPerLine: 16 }
  },
  {
    id: -8,
    name: "Big bounce",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Bebas Neue",
      bold: false,
      fontSizeRatio: 0.075,
      uppercase: true,
      highlightColor: "#FF2D2D",
      emphasisColor: "#FFE000",
      outlineRatio: 0.1,
      shadowRatio: 0.08,
      animation: "bounce",
      maxCharsPerLine: 14,
      linesPerPage: 1
    }
  },
  {
    id: -9,
    name: "Soft fade",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Poppins",
      bold: false,
      fontSizeRatio: 0.036,
      outlineRatio: 0,
      shadowRatio: 0.07,
      emphasisColor: "#FFD54F",
      highlight: "none",
      animation: "fade",
      position: "bottom",
      maxCharsPerLine: 32
    }
  },
  {
    id: -10,
    name: "Typewriter",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Roboto",
      fontSizeRatio: 0.038,
      textColor: "#F5F5F5",
      boxColor: "#111111",
      outlineRatio: 0,
      highlight: "none",
      animation: "typewriter",
      position: "lower-third",
      maxCharsPerLine: 26
    }
  },
  {
    id: -11,
    name: "Handwritten",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Caveat",
      fontSizeRatio: 0.058,
      outlineColor: "#2B2B2B",
      highlightColor: "#FFD166",
      animation: "fade",
      maxCharsPerLine: 20
    }
  },
  {
    id: -12,
    name: "Editorial serif",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Playfair Display",
      fontSizeRatio: 0.04,
      outlineRatio: 0.03,
      shadowRatio: 0.06,
      highlight: "none",
      animation: "slide-up",
      position: "lower-third",
      maxCharsPerLine: 28
    }
  },
  {
    id: -13,
    name: "Green karaoke",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Montserrat",
      uppercase: true,
      highlight: "karaoke-fill",
      highlightColor: "#00E676",
      outlineRatio: 0.1,
      maxCharsPerLine: 20
    }
  },
  {
    id: -14,
    name: "Pulse",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Poppins",
      outlineColor: "#7C4DFF",
      highlightColor: "#E1BEE7",
      animation: "glow-pulse",
      maxCharsPerLine: 18
    }
  },
  {
    id: -15,
    name: "Shake",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Bebas Neue",
      bold: false,
      fontSizeRatio: 0.068,
      uppercase: true,
      highlightColor: "#FFEA00",
      emphasisColor: "#FF3D00",
      emphasisScale: 1.3,
      outlineRatio: 0.1,
      animation: "shake",
      maxCharsPerLine: 16
    }
  },
  {
    id: -16,
    name: "Clean subtitle",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Noto Sans",
      bold: false,
      fontSizeRatio: 0.032,
      boxColor: "#000000",
      outlineRatio: 0,
      highlight: "none",
      animation: "fade",
      position: "bottom",
      maxCharsPerLine: 40
    }
  },
  {
    id: -17,
    name: "Highlighter",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Montserrat",
      uppercase: true,
      highlight: "box-word",
      highlightColor: "#6A1B9A",
      outlineRatio: 0.1,
      animation: "pop",
      maxCharsPerLine: 18
    }
  },
  {
    id: -18,
    name: "Rise",
    builtIn: true,
    style: { ...base, fontFamily: "Roboto", uppercase: true, highlightColor: "#00B0FF", animation: "slide-up", maxCharsPerLine: 20 }
  },
  {
    id: -19,
    name: "Pastel bounce",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Poppins",
      textColor: "#FFF4E6",
      highlightColor: "#FF8FAB",
      outlineColor: "#3D2C8D",
      outlineRatio: 0.1,
      animation: "bounce",
      maxCharsPerLine: 18
    }
  },
  {
    id: -20,
    name: "Terminal",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Roboto",
      fontSizeRatio: 0.036,
      textColor: "#39FF14",
      boxColor: "#000000",
      outlineRatio: 0,
      highlight: "none",
      animation: "typewriter",
      position: "top",
      maxCharsPerLine: 24
    }
  },
  {
    id: -21,
    name: "Cinema",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Playfair Display",
      bold: false,
      fontSizeRatio: 0.034,
      textColor: "#FDF6E3",
      outlineRatio: 0,
      shadowRatio: 0.09,
      highlight: "none",
      animation: "fade",
      position: "bottom",
      maxCharsPerLine: 36
    }
  },
  {
    id: -22,
    name: "Comic",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Caveat",
      fontSizeRatio: 0.062,
      textColor: "#FFEB3B",
      highlightColor: "#FF5722",
      outlineRatio: 0.14,
      animation: "bounce",
      maxCharsPerLine: 18
    }
  },
  {
    id: -23,
    name: "Headline",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Roboto",
      fontSizeRatio: 0.034,
      boxColor: "#C62828",
      outlineRatio: 0,
      highlight: "none",
      animation: "slide-up",
      position: "top",
      maxCharsPerLine: 30,
      linesPerPage: 1
    }
  },
  {
    id: -24,
    name: "Neon karaoke",
    builtIn: true,
    style: {
      ...base,
      fontFamily: "Montserrat",
      textColor: "#B3E5FC",
      highlightColor: "#FF4081",
      outlineColor: "#00E5FF",
      glow: true,
      highlight: "karaoke-fill",
      animation: "glow-pulse",
      maxCharsPerLine: 20
    }
  }
]

export const DEFAULT_TEMPLATE_ID = -1

/** The default distance from the edge each position sits on, as a fraction of the height (middle is centred). */
const DEFAULT_MARGIN_RATIO = { bottom: 0.08, "lower-third": 0.25, top: 0.1 } as const

/** Where a style puts the caption block: centred, or at a distance from the bottom or top edge. */
export const placementOf = (style: CaptionStyle): { readonly edge: "bottom" | "top" | "centre"; readonly marginRatio: number } =>
  style.position === "middle"
    ? { edge: "centre", marginRatio: 0 }
    : { edge: style.position === "top" ? "top" : "bottom", marginRatio: style.marginRatio ?? DEFAULT_MARGIN_RATIO[style.position] }

export const layoutRulesOf = (style: CaptionStyle): LayoutRules => ({
  maxCharsPerLine: style.maxCharsPerLine,
  linesPerPage: style.linesPerPage,
  pauseSeconds: 0.7
})

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

const clock = (seconds: number, separator: "," | "."): string => {
  const ms = Math.max(0, Math.round(seconds * 1000))
  const h = Math.floor(ms / 3_600_000)
  const m = Math.floor((ms % 3_600_000) / 60_000)
  const s = Math.floor((ms % 60_000) / 1000)
  return `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}${separator}${pad(ms % 1000, 3)}`
}

/**
 * Caption text as one line of a script: line breaks and control characters become spaces, since each
 * format (ASS, SRT, VTT) reads a line break as its own syntax (a new line, cue or section).
 */
export const singleLine = (text: string): string => text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ")

/** A cue's lines, escaped; a blank one is left out, since a blank line ends the cue. */
const cueText = (page: CaptionPage, escape: (text: string) => string): string =>
  page.lines.map((line) => escape(line.text)).filter((line) => line.trim() !== "").join("\n")

/**
 * SubRip has no escapes, yet players read HTML tags, entities and ASS overrides in it (`<b>`, `&amp;`,
 * `{\an8}`, `\N`): a word joiner (invisible) after `<`, `&`, `{` and `\` breaks each, and one inside
 * `-->` keeps a line from reading as a cue's timing.
 */
const escapeSrtText = (text: string): string =>
  singleLine(text).replace(/[<&{\\]/g, "$&\u2060").replaceAll("-->", "--\u2060>")

/** WebVTT cue text is markup: `&`, `<` and `>` as character references, which also keeps `-->` out of it. */
const escapeVttText = (text: string): string =>
  singleLine(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

export const toSrt = (pages: ReadonlyArray<CaptionPage>): string =>
  pages
    .map((p, i) => `${i + 1}\n${clock(p.start, ",")} --> ${clock(p.end, ",")}\n${cueText(p, escapeSrtText)}\n`)
    .join("\n")

export const toVtt = (pages: ReadonlyArray<CaptionPage>): string =>
  "WEBVTT\n\n" +
  pages
    .map((p) => `${clock(p.start, ".")} --> ${clock(p.end, ".")}\n${cueText(p, escapeVttText)}\n`)
    .join("\n")
