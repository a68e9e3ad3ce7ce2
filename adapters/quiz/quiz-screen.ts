// A quiz video's picture: every card's text is wrapped and placed once, for the frame's size, then any
// moment (a card sliding in, answers appearing, the countdown ticking, the answer revealed) is drawn
// from that layout. Moments are quantized first, so frames that look alike are one picture the
// animator draws once and holds.
import { type Canvas, createCanvas, type SKRSContext2D } from "@napi-rs/canvas"
import type { AnimateRequest } from "../../domain/ports/animator.ts"
import type { QuizTheme } from "../../domain/quiz-themes.ts"
import { answerLetter, type QuizContent, type QuizMoment } from "../../domain/quiz.ts"
import { drawLine, fontFor, isRightToLeft, measureLine, type TextLine, type TextStyle, wrapText } from "../chat/chat-text.ts"

export interface Rect {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

export interface Circle {
  readonly cx: number
  readonly cy: number
  readonly r: number
}

/** Wrapped text placed in the frame: each line's left edge and baseline, within `box`. */
export interface Paragraph {
  readonly style: TextStyle
  readonly rightToLeft: boolean
  readonly box: Rect
  readonly lines: ReadonlyArray<{ readonly line: TextLine; readonly left: number; readonly baseline: number }>
}

export interface AnswerLayout {
  readonly rect: Rect
  readonly badge: Circle
  readonly letter: string
  readonly text: Paragraph
  /** The side it slides in from: -1 left, 1 right. */
  readonly from: -1 | 1
}

export interface QuestionLayout {
  /** How much the type was shrunk to fit the frame (1: not at all). */
  readonly scale: number
  readonly card: Rect
  readonly label: Rect
  readonly labelText: string
  readonly question: Paragraph
  readonly ring: Circle
  /** A right-to-left question: its rows have their badges on the right, and A is the right column. */
  readonly rightToLeft: boolean
  readonly answers: ReadonlyArray<AnswerLayout>
  readonly explanation: { readonly rect: Rect; readonly icon: Circle; readonly text: Paragraph } | null
}

export interface TitleLayout {
  readonly scale: number
  readonly card: Rect
  readonly label: Rect
  readonly labelText: string
  /** A big emoji over the text. */
  readonly emoji: string
  readonly icon: Circle
  readonly text: Paragraph
  readonly subtitle: Paragraph | null
}

/** A moment as drawn: continuous values cut to steps, so that equal frames are equal values. */
type Frame =
  | { readonly card: "intro" | "outro"; readonly entrance: number }
  | {
    readonly card: "question"
    readonly question: number
    readonly entrance: number
    readonly answers: ReadonlyArray<number>
    /** Tenths of a second left on the countdown, or null before it starts. */
    readonly tenths: number | null
    readonly reveal: number
    readonly explaining: boolean
  }

const ENTRANCE_STEPS = 10
const REVEAL_STEPS = 6
const INTRO_ICON = "🧠"
const OUTRO_ICON = "🏆"
const EXPLANATION_ICON = "💡"
/** How far under a card its raised shade shows, on a 1080-pixel frame. */
const DEPTH = 9
/** Pictures of cards kept for reuse: a question's card and explanation, and the next question's. */
const KEPT_SPRITES = 4
/** Past this, type is not shrunk further: such text overflows rather than becoming unreadable. */
const MIN_SCALE = 0.3

/** The box two rects take, with room around them for raised shades and neon halos. */
const around = (a: Rect, b: Rect, unit: number): Rect => {
  const m = 48 * unit
  const x = Math.min(a.x, b.x) - m
  const y = Math.min(a.y, b.y) - m
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) + m - x, h: Math.max(a.y + a.h, b.y + b.h) + m - y }
}

const steps = (value: number, count: number): number => Math.ceil(Math.min(1, Math.max(0, value)) * count - 1e-9)
const easeOut = (t: number): number => 1 - (1 - t) ** 3
const easeOutBack = (t: number): number => 1 + 2.70158 * (t - 1) ** 3 + 1.70158 * (t - 1) ** 2

/** The same colour fully transparent, for gradients that fade out without darkening. */
const transparentOf = (colour: string): string => {
  const rgba = /^rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour)
  if (rgba !== null) return `rgba(${rgba[1]},${rgba[2]},${rgba[3]},0)`
  const n = Number.parseInt(colour.slice(1, 7), 16)
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},0)`
}

export class QuizScreen {
  readonly questions: ReadonlyArray<QuestionLayout>
  readonly intro: TitleLayout
  readonly outro: TitleLayout
  /** Type and spacing on a 1080-pixel frame scale by this. */
  private readonly unit: number
  private readonly portrait: boolean
  private readonly content: { readonly x: number; readonly w: number; readonly top: number; readonly bottom: number }
  /** The theme's background, drawn once. */
  private readonly backdrop: Canvas | null
  /** Pictures of cards, newest used last. */
  private readonly sprites = new Map<string, Canvas>()

  constructor(
    ctx: SKRSContext2D,
    private readonly quiz: QuizContent,
    private readonly theme: QuizTheme,
    private readonly width: number,
    private readonly height: number,
    private readonly fill: AnimateRequest["fill"]
  ) {
    this.unit = Math.min(width, height) / 1080
    this.portrait = height / width >= 1.3
    // Portrait frames keep clear of the app's own overlays: the top bar, and the caption and buttons below.
    const side = (this.portrait ? 0.06 : 0.05) * width
    const w = this.portrait ? width - 2 * side : Math.min(width - 2 * side, 1500 * this.unit)
    this.content = {
      x: (width - w) / 2,
      w,
      top: (this.portrait ? 0.085 : 0.06) * height,
      bottom: height - (this.portrait ? 0.14 : 0.06) * height
    }
    this.questions = quiz.questions.map((_, i) => this.fitted((s) => this.layQuestion(ctx, i, s), (l) => l.explanation?.rect ?? l.answers.at(-1)!.rect))
    this.intro = this.fitted((s) => this.layTitle(ctx, "QUIZ", INTRO_ICON, quiz.title, this.subtitleOf(), s), (l) => l.card)
    this.outro = this.fitted((s) => this.layTitle(ctx, "THE END", OUTRO_ICON, quiz.outro, null, s), (l) => l.card)
    this.backdrop = fill === "theme" ? this.paintBackdrop() : null
  }

  /** Two moments with equal keys are drawn as the same picture. */
  keyOf(moment: QuizMoment): string {
    return JSON.stringify(this.frameOf(moment))
  }

  draw(ctx: SKRSContext2D, moment: QuizMoment): void {
    const frame = this.frameOf(moment)
    ctx.save()
    ctx.setTransform(1, 0, 0, 1, 0, 0)
    ctx.globalAlpha = 1
    ctx.shadowColor = "transparent"
    if (this.fill === "transparent") ctx.clearRect(0, 0, this.width, this.height)
    else if (this.fill === "theme") ctx.drawImage(this.backdrop!, 0, 0)
    else {
      ctx.fillStyle = this.fill.colour
      ctx.fillRect(0, 0, this.width, this.height)
    }
    if (frame.card === "question") this.drawQuestion(ctx, frame)
    else this.drawTitle(ctx, frame.card === "intro" ? this.intro : this.outro, frame.entrance / ENTRANCE_STEPS)
    ctx.restore()
  }

  private frameOf(moment: QuizMoment): Frame {
    if (moment.card !== "question") return { card: moment.card, entrance: steps(moment.entrance, ENTRANCE_STEPS) }
    const total = this.quiz.countdownSeconds * 10
    return {
      card: "question",
      question: moment.question,
      entrance: steps(moment.entrance, ENTRANCE_STEPS),
      answers: moment.answers.map((a) => steps(a, ENTRANCE_STEPS)),
      tenths: moment.remaining === null ? null : Math.min(total, Math.max(0, Math.ceil(moment.remaining * 10 - 1e-6))),
      reveal: steps(moment.reveal, REVEAL_STEPS),
      explaining: moment.explaining
    }
  }

  private subtitleOf(): string {
    const n = this.quiz.questions.length
    return n === 1 ? "1 question" : `${n} questions`
  }

  /** The layout at the largest type scale whose bottom (`bottomOf`) stays inside the frame's content area. */
  private fitted<L extends { readonly card: Rect }>(lay: (scale: number) => L, bottomOf: (layout: L) => Rect): L {
    let scale = 1
    for (;;) {
      const layout = lay(scale)
      const bottom = bottomOf(layout)
      if (bottom.y + bottom.h <= this.content.bottom || scale * 0.92 < MIN_SCALE) return layout
      scale *= 0.92
    }
  }

  /**
   * Lines wrapped to `box.w` and centred vertically in `box`; `align` puts them in the middle or at the
   * start side (the right for right-to-left layouts).
   */
  private paragraph(
    ctx: SKRSContext2D,
    text: string,
    style: TextStyle,
    lineHeight: number,
    box: { readonly x: number; readonly y: number; readonly w: number },
    align: "center" | "start",
    rightToLeftLayout: boolean
  ): Paragraph {
    const wrapped = wrapText(ctx, text.trim(), style, box.w)
    const h = wrapped.length * lineHeight
    return {
      style,
      rightToLeft: isRightToLeft(text),
      box: { ...box, h },
      lines: wrapped.map((line, i) => ({
        line,
        left: align === "center" ? box.x + (box.w - line.width) / 2 : rightToLeftLayout ? box.x + box.w - line.width : box.x,
        baseline: box.y + i * lineHeight + (lineHeight + style.size * 0.72) / 2
      }))
    }
  }

  /** Lays a question out from y = 0, then moves it down into the content area. */
  private layQuestion(ctx: SKRSContext2D, index: number, scale: number): QuestionLayout {
    const q = this.quiz.questions[index]!
    const u = this.unit * scale
    const { x, w } = this.content
    const rtl = isRightToLeft(q.question)
    const labelText = `QUESTION ${index + 1} / ${this.quiz.questions.length}`
    const labelStyle: TextStyle = { size: Math.round(36 * u), weight: "bold" }
    const labelH = 70 * u
    const labelW = measureLine(ctx, labelText, labelStyle) + 60 * u
    const ringR = 84 * u

    const padX = 52 * u
    const questionStyle: TextStyle = { size: Math.round(66 * u), weight: "bold" }
    const padTop = labelH / 2 + 42 * u
    const question = this.paragraph(ctx, q.question, questionStyle, questionStyle.size * 1.24, { x: x + padX, y: labelH / 2 + padTop, w: w - 2 * padX }, "center", rtl)
    const card: Rect = { x, y: labelH / 2, w, h: padTop + question.box.h + ringR * 0.6 + 38 * u }
    const ring: Circle = { cx: x + w / 2, cy: card.y + card.h + ringR * 0.35, r: ringR }

    const columns = !this.portrait && (this.width / this.height >= 1.3 || q.answers.length >= 4) ? 2 : 1
    const columnGap = 30 * u
    const rowGap = 26 * u
    const columnW = (w - (columns - 1) * columnGap) / columns
    const badgeR = 42 * u
    const rowPadX = 22 * u
    const textInset = rowPadX + 2 * badgeR + 26 * u
    const answerStyle: TextStyle = { size: Math.round(52 * u), weight: "bold" }
    const answerLine = answerStyle.size * 1.22
    const textW = columnW - textInset - 36 * u
    const texts = q.answers.map((a) => wrapText(ctx, a.trim(), answerStyle, textW).length)
    const answers: Array<AnswerLayout> = []
    let y = ring.cy + ringR + 30 * u
    for (let first = 0; first < q.answers.length; first += columns) {
      const inRow = Math.min(columns, q.answers.length - first)
      const rowH = Math.max(128 * u, Math.max(...texts.slice(first, first + inRow)) * answerLine + 60 * u)
      for (let k = 0; k < inRow; k++) {
        const i = first + k
        // A lone last answer in two columns sits in the middle.
        const column = inRow < columns ? 0.5 : rtl ? columns - 1 - k : k
        const rect: Rect = { x: x + column * (columnW + columnGap), y, w: columnW, h: rowH }
        const badge: Circle = { cx: rtl ? rect.x + rect.w - rowPadX - badgeR : rect.x + rowPadX + badgeR, cy: y + rowH / 2, r: badgeR }
        const textX = rtl ? rect.x + 36 * u : rect.x + textInset
        const text = this.paragraph(ctx, q.answers[i]!, answerStyle, answerLine, { x: textX, y: 0, w: textW }, "start", rtl)
        answers.push({
          rect,
          badge,
          letter: answerLetter(i),
          text: this.shifted(text, y + (rowH - text.box.h) / 2),
          from: columns === 2 ? (column < 0.5 ? -1 : 1) : i % 2 === 0 ? -1 : 1
        })
      }
      y += rowH + rowGap
    }

    let explanation: QuestionLayout["explanation"] = null
    if (q.explanation !== undefined) {
      const pad = 34 * u
      const iconR = 32 * u
      const style: TextStyle = { size: Math.round(44 * u), weight: "normal" }
      const textX = rtl ? x + pad : x + pad + 2 * iconR + 24 * u
      const text = this.paragraph(ctx, q.explanation, style, style.size * 1.3, { x: textX, y: y + 10 * u + pad, w: w - 2 * pad - 2 * iconR - 24 * u }, "start", rtl)
      const rect: Rect = { x, y: y + 10 * u, w, h: Math.max(text.box.h, 2 * iconR) + 2 * pad }
      explanation = { rect, icon: { cx: rtl ? x + w - pad - iconR : x + pad + iconR, cy: rect.y + pad + iconR, r: iconR }, text }
    }

    const bottom = explanation === null ? y - rowGap : explanation.rect.y + explanation.rect.h
    const room = this.content.bottom - this.content.top
    const dy = this.content.top + Math.max(0, (room - bottom) * 0.4)
    const move = (r: Rect): Rect => ({ ...r, y: r.y + dy })
    return {
      scale,
      card: move(card),
      label: { x: x + (w - labelW) / 2, y: card.y - labelH / 2 + dy, w: labelW, h: labelH },
      labelText,
      question: this.shifted(question, question.box.y + dy),
      ring: { ...ring, cy: ring.cy + dy },
      rightToLeft: rtl,
      answers: answers.map((a) => ({ ...a, rect: move(a.rect), badge: { ...a.badge, cy: a.badge.cy + dy }, text: this.shifted(a.text, a.text.box.y + dy) })),
      explanation: explanation === null ? null : {
        rect: move(explanation.rect),
        icon: { ...explanation.icon, cy: explanation.icon.cy + dy },
        text: this.shifted(explanation.text, explanation.text.box.y + dy)
      }
    }
  }

  /** A card in the middle of the frame: a pill on its top edge, a big emoji, the text and an optional line under it. */
  private layTitle(ctx: SKRSContext2D, labelText: string, emoji: string, text: string, subtitle: string | null, scale: number): TitleLayout {
    const u = this.unit * scale
    const w = this.portrait ? this.content.w : Math.min(this.content.w, 1100 * this.unit)
    const x = (this.width - w) / 2
    const labelStyle: TextStyle = { size: Math.round(40 * u), weight: "bold" }
    const labelH = 76 * u
    const labelW = measureLine(ctx, labelText, labelStyle) + 76 * u
    const padX = 64 * u
    const iconR = 78 * u
    const iconCy = labelH / 2 + 56 * u + iconR
    const style: TextStyle = { size: Math.round(78 * u), weight: "bold" }
    const body = this.paragraph(ctx, text, style, style.size * 1.2, { x: x + padX, y: iconCy + iconR + 34 * u, w: w - 2 * padX }, "center", false)
    const subStyle: TextStyle = { size: Math.round(42 * u), weight: "bold" }
    const sub = subtitle === null
      ? null
      : this.paragraph(ctx, subtitle, subStyle, subStyle.size * 1.3, { x: x + padX, y: body.box.y + body.box.h + 22 * u, w: w - 2 * padX }, "center", false)
    const textBottom = sub === null ? body.box.y + body.box.h : sub.box.y + sub.box.h
    const h = textBottom + 64 * u
    const room = this.content.bottom - this.content.top
    const top = this.content.top + Math.max(0, (room - h) / 2)
    return {
      scale,
      card: { x, y: top, w, h },
      label: { x: x + (w - labelW) / 2, y: top - labelH / 2, w: labelW, h: labelH },
      labelText,
      emoji,
      icon: { cx: x + w / 2, cy: top + iconCy, r: iconR },
      text: this.shifted(body, top + body.box.y),
      subtitle: sub === null ? null : this.shifted(sub, top + sub.box.y)
    }
  }

  private shifted(p: Paragraph, y: number): Paragraph {
    const dy = y - p.box.y
    return { ...p, box: { ...p.box, y }, lines: p.lines.map((l) => ({ ...l, baseline: l.baseline + dy })) }
  }

  /**
   * Draws what `paint` draws inside `area`, from a picture of it made the first time: cards and their
   * text do not change while on screen (only how they are moved and faded), and their neon halos are
   * slow to blur. The last few pictures are kept, enough for the cards of one question.
   */
  private sprite(ctx: SKRSContext2D, key: string, area: Rect, paint: (ctx: SKRSContext2D) => void): void {
    const x = Math.floor(area.x)
    const y = Math.floor(area.y)
    let sprite = this.sprites.get(key)
    if (sprite === undefined) {
      sprite = createCanvas(Math.ceil(area.x + area.w) - x, Math.ceil(area.y + area.h) - y)
      const c = sprite.getContext("2d")
      c.translate(-x, -y)
      paint(c)
      if (this.sprites.size >= KEPT_SPRITES) this.sprites.delete(this.sprites.keys().next().value!)
    } else this.sprites.delete(key)
    this.sprites.set(key, sprite)
    ctx.drawImage(sprite, x, y)
  }

  private paintBackdrop(): Canvas {
    const { width, height, theme } = this
    const bg = theme.background
    const canvas = createCanvas(width, height)
    const ctx = canvas.getContext("2d")
    const gradient = ctx.createLinearGradient(0, 0, 0, height)
    gradient.addColorStop(0, bg.top)
    gradient.addColorStop(1, bg.bottom)
    ctx.fillStyle = gradient
    ctx.fillRect(0, 0, width, height)
    for (const glow of bg.glows) {
      const r = glow.r * width
      const g = ctx.createRadialGradient(glow.x * width, glow.y * height, 0, glow.x * width, glow.y * height, r)
      g.addColorStop(0, glow.colour)
      g.addColorStop(1, transparentOf(glow.colour))
      ctx.fillStyle = g
      ctx.fillRect(0, 0, width, height)
    }
    const u = this.unit
    ctx.fillStyle = bg.patternColour
    ctx.strokeStyle = bg.patternColour
    switch (bg.pattern) {
      case "rays": {
        const cx = width / 2
        const cy = height * 0.42
        const reach = Math.hypot(width, height)
        const count = 18
        ctx.beginPath()
        for (let i = 0; i < count; i++) {
          const a = (i / count) * Math.PI * 2
          ctx.moveTo(cx, cy)
          ctx.arc(cx, cy, reach, a, a + Math.PI / count)
          ctx.closePath()
        }
        ctx.fill()
        break
      }
      case "dots": {
        const gap = 96 * u
        ctx.beginPath()
        for (let row = 0, y = gap / 2; y < height + gap; row++, y += gap * 0.866) {
          for (let x = row % 2 === 0 ? 0 : gap / 2; x < width + gap; x += gap) {
            ctx.moveTo(x + 10 * u, y)
            ctx.arc(x, y, 10 * u, 0, Math.PI * 2)
          }
        }
        ctx.fill()
        break
      }
      case "grid": {
        const gap = 90 * u
        ctx.lineWidth = Math.max(1, 2 * u)
        ctx.beginPath()
        for (let x = (width / 2) % gap; x < width; x += gap) {
          ctx.moveTo(x, 0)
          ctx.lineTo(x, height)
        }
        for (let y = (height / 2) % gap; y < height; y += gap) {
          ctx.moveTo(0, y)
          ctx.lineTo(width, y)
        }
        ctx.stroke()
        break
      }
    }
    return canvas
  }

  /** A rounded panel: its raised shade, its fill, and its border (glowing, where the theme has neon and `glow` asks). */
  private panel(ctx: SKRSContext2D, rect: Rect, radius: number, fill: string, border: string | null, glow: boolean): void {
    const { theme } = this
    const u = this.unit
    const r = Math.min(radius, rect.h / 2)
    if (theme.card.depth !== null) {
      ctx.fillStyle = theme.card.depth
      ctx.beginPath()
      ctx.roundRect(rect.x, rect.y + DEPTH * u, rect.w, rect.h, r)
      ctx.fill()
    }
    ctx.fillStyle = fill
    ctx.beginPath()
    ctx.roundRect(rect.x, rect.y, rect.w, rect.h, r)
    ctx.fill()
    if (border === null) return
    ctx.save()
    if (glow && theme.card.glow !== null) {
      ctx.shadowColor = theme.card.glow
      ctx.shadowBlur = 22 * u
    }
    ctx.strokeStyle = border
    ctx.lineWidth = 3 * u
    ctx.stroke()
    ctx.restore()
  }

  private pill(ctx: SKRSContext2D, rect: Rect, text: string): void {
    const style: TextStyle = { size: Math.round(rect.h * 0.52), weight: "bold" }
    if (this.theme.card.depth !== null) {
      ctx.fillStyle = this.theme.card.depth
      ctx.beginPath()
      ctx.roundRect(rect.x, rect.y + 6 * this.unit, rect.w, rect.h, rect.h / 2)
      ctx.fill()
    }
    ctx.save()
    if (this.theme.card.glow !== null) {
      ctx.shadowColor = this.theme.label.fill
      ctx.shadowBlur = 26 * this.unit
    }
    ctx.fillStyle = this.theme.label.fill
    ctx.beginPath()
    ctx.roundRect(rect.x, rect.y, rect.w, rect.h, rect.h / 2)
    ctx.fill()
    ctx.restore()
    this.centredText(ctx, text, style, this.theme.label.text, rect.x + rect.w / 2, rect.y + rect.h / 2)
  }

  /** One line of text centred on (cx, cy), by its capital letters' height. */
  private centredText(ctx: SKRSContext2D, text: string, style: TextStyle, colour: string, cx: number, cy: number): void {
    ctx.font = fontFor(style)
    ctx.fillStyle = colour
    ctx.textAlign = "center"
    ctx.textBaseline = "alphabetic"
    ctx.fillText(text, cx, cy + style.size * 0.36)
    ctx.textAlign = "left"
  }

  private drawParagraph(ctx: SKRSContext2D, p: Paragraph, colour: string): void {
    for (const { line, left, baseline } of p.lines) {
      drawLine(ctx, line, p.rightToLeft ? left + line.width : left, baseline, p.style, colour, p.rightToLeft)
    }
  }

  private emoji(ctx: SKRSContext2D, emoji: string, icon: Circle): void {
    const size = Math.round(icon.r * 1.6)
    ctx.font = fontFor({ size, weight: "normal" }, true)
    // Skia multiplies colour glyphs by the paint's alpha: a translucent fill left from a panel would fade them.
    ctx.fillStyle = "#000000"
    ctx.textAlign = "center"
    ctx.textBaseline = "middle"
    ctx.fillText(emoji, icon.cx, icon.cy)
    ctx.textAlign = "left"
    ctx.textBaseline = "alphabetic"
  }

  private drawTitle(ctx: SKRSContext2D, layout: TitleLayout, entrance: number): void {
    if (entrance <= 0) return
    const { theme } = this
    const { card } = layout
    const scale = 0.6 + 0.4 * easeOutBack(entrance)
    ctx.save()
    ctx.globalAlpha = Math.min(1, entrance * 2)
    ctx.translate(card.x + card.w / 2, card.y + card.h / 2 + 120 * this.unit * (1 - easeOut(entrance)))
    ctx.scale(scale, scale)
    ctx.translate(-(card.x + card.w / 2), -(card.y + card.h / 2))
    this.sprite(ctx, `card ${layout.labelText}`, around(card, layout.label, this.unit), (c) => {
      this.panel(c, card, theme.card.radius * this.unit * layout.scale, theme.card.fill, theme.card.border, true)
      this.pill(c, layout.label, layout.labelText)
      this.emoji(c, layout.emoji, layout.icon)
      this.drawParagraph(c, layout.text, theme.card.text)
      if (layout.subtitle !== null) this.drawParagraph(c, layout.subtitle, theme.card.subtitle)
    })
    ctx.restore()
  }

  private drawQuestion(ctx: SKRSContext2D, frame: Extract<Frame, { card: "question" }>): void {
    const layout = this.questions[frame.question]
    if (layout === undefined || frame.entrance <= 0) return
    const { theme } = this
    const u = this.unit * layout.scale
    const entrance = easeOut(frame.entrance / ENTRANCE_STEPS)
    const reveal = frame.reveal / REVEAL_STEPS
    const correct = this.quiz.questions[frame.question]!.correct

    ctx.save()
    ctx.globalAlpha = entrance
    ctx.translate(0, -100 * u * (1 - entrance))
    this.sprite(ctx, `question ${frame.question}`, around(layout.card, layout.label, this.unit), (c) => {
      this.panel(c, layout.card, theme.card.radius * u, theme.card.fill, theme.card.border, true)
      this.pill(c, layout.label, layout.labelText)
      this.drawParagraph(c, layout.question, theme.card.text)
    })
    ctx.restore()

    if (frame.tenths !== null && reveal < 0.5) this.drawRing(ctx, layout.ring, frame.tenths, reveal)

    for (const [i, answer] of layout.answers.entries()) {
      const step = frame.answers[i] ?? 0
      if (step <= 0) continue
      const shown = easeOut(step / ENTRANCE_STEPS)
      ctx.save()
      ctx.globalAlpha = shown
      ctx.translate(answer.from * (1 - shown) * this.width * 0.4, 0)
      this.drawAnswer(ctx, answer, i, i === correct ? reveal : 0, u, layout.rightToLeft)
      if (i !== correct && reveal > 0) {
        // A veil rather than transparency: a see-through row would show its own raised shade through it.
        const { x, y, w, h } = answer.rect
        const radius = Math.min(theme.answer.radius * u, h / 2)
        ctx.globalAlpha = shown * reveal
        ctx.fillStyle = theme.dim
        ctx.beginPath()
        ctx.roundRect(x, y, w, h, radius)
        if (theme.card.depth !== null) ctx.roundRect(x, y + DEPTH * this.unit, w, h, radius)
        ctx.fill()
      }
      ctx.restore()
    }

    const explanation = layout.explanation
    if (frame.explaining && explanation !== null) {
      this.sprite(ctx, `explanation ${frame.question}`, around(explanation.rect, explanation.rect, this.unit), (c) => {
        this.panel(c, explanation.rect, theme.answer.radius * u, theme.explanation.fill, theme.explanation.border, true)
        this.emoji(c, EXPLANATION_ICON, explanation.icon)
        this.drawParagraph(c, explanation.text, theme.explanation.text)
      })
    }
  }

  /**
   * An answer row; the right one, as `reveal` goes from 0 to 1, grows a little and turns green from its
   * badge's side: the revealed look (green, a check for the letter, light text) is drawn clipped to the
   * green part, so the text changes colour exactly where the green has reached.
   */
  private drawAnswer(ctx: SKRSContext2D, answer: AnswerLayout, index: number, reveal: number, u: number, rightToLeft: boolean): void {
    const { theme } = this
    const { rect } = answer
    const radius = Math.min(theme.answer.radius * u, rect.h / 2)
    if (reveal > 0) {
      const grow = 1 + 0.04 * reveal
      ctx.translate(rect.x + rect.w / 2, rect.y + rect.h / 2)
      ctx.scale(grow, grow)
      ctx.translate(-(rect.x + rect.w / 2), -(rect.y + rect.h / 2))
    }
    this.panel(ctx, rect, radius, theme.answer.fills[index % theme.answer.fills.length]!, reveal >= 1 ? null : theme.answer.border, false)
    this.answerFace(ctx, answer, theme.answer.badges[index % theme.answer.badges.length]!, null, theme.answer.text)
    if (reveal <= 0) return
    const w = rect.w * reveal
    const green = (): void => {
      ctx.beginPath()
      ctx.roundRect(rightToLeft ? rect.x + rect.w - w : rect.x, rect.y, w, rect.h, Math.min(radius, w / 2))
    }
    ctx.save()
    if (theme.correct.glow !== null) {
      ctx.shadowColor = theme.correct.glow
      ctx.shadowBlur = 40 * u * reveal
    }
    ctx.fillStyle = theme.correct.fill
    green()
    ctx.fill()
    ctx.restore()
    ctx.save()
    green()
    ctx.clip()
    this.answerFace(ctx, answer, theme.correct.badge, theme.correct.check, theme.correct.text)
    ctx.restore()
  }

  /** A row's badge (its letter, or a check in `check`'s colour) and its text. */
  private answerFace(ctx: SKRSContext2D, answer: AnswerLayout, badgeFill: string, check: string | null, text: string): void {
    const { badge } = answer
    ctx.fillStyle = badgeFill
    ctx.beginPath()
    ctx.arc(badge.cx, badge.cy, badge.r, 0, Math.PI * 2)
    ctx.fill()
    if (check !== null) this.check(ctx, badge, check)
    else this.centredText(ctx, answer.letter, { size: Math.round(badge.r * 1.1), weight: "bold" }, this.theme.answer.badgeText, badge.cx, badge.cy)
    this.drawParagraph(ctx, answer.text, text)
  }

  private check(ctx: SKRSContext2D, badge: Circle, colour: string): void {
    const { cx, cy, r } = badge
    ctx.strokeStyle = colour
    ctx.lineWidth = r * 0.26
    ctx.lineCap = "round"
    ctx.lineJoin = "round"
    ctx.beginPath()
    ctx.moveTo(cx - r * 0.42, cy + r * 0.02)
    ctx.lineTo(cx - r * 0.1, cy + r * 0.34)
    ctx.lineTo(cx + r * 0.45, cy - r * 0.32)
    ctx.stroke()
  }

  /**
   * The countdown: a disc whose arc shrinks as the seconds run out, the whole seconds left in the
   * middle. It pops in when the countdown starts, turns urgent (and throbs on each second) in the
   * last three, and fades out as the answer starts to be revealed.
   */
  private drawRing(ctx: SKRSContext2D, ring: Circle, tenths: number, reveal: number): void {
    const { theme } = this
    const total = Math.max(1, this.quiz.countdownSeconds * 10)
    const seconds = Math.ceil(tenths / 10)
    const urgent = seconds <= 3
    const pop = easeOutBack(Math.min(1, (total - tenths + 1) / 3))
    const throb = urgent && tenths > 0 ? [1.1, 1, 1, 1, 1, 1, 1, 1, 1, 1.05][tenths % 10]! : 1
    const { cx, cy, r } = ring
    ctx.save()
    ctx.globalAlpha = Math.min(1, pop) * Math.max(0, 1 - 2 * reveal)
    ctx.translate(cx, cy)
    const scale = (0.4 + 0.6 * pop) * throb * (1 + 0.3 * reveal)
    ctx.scale(scale, scale)
    if (theme.card.depth !== null) {
      ctx.fillStyle = theme.card.depth
      ctx.beginPath()
      ctx.arc(0, DEPTH * this.unit, r, 0, Math.PI * 2)
      ctx.fill()
    }
    ctx.fillStyle = theme.ring.disc
    ctx.beginPath()
    ctx.arc(0, 0, r, 0, Math.PI * 2)
    ctx.fill()
    const band = r * 0.8
    ctx.lineWidth = r * 0.17
    ctx.strokeStyle = theme.ring.track
    ctx.beginPath()
    ctx.arc(0, 0, band, 0, Math.PI * 2)
    ctx.stroke()
    if (tenths > 0) {
      const colour = urgent ? theme.ring.urgent : theme.ring.progress
      ctx.save()
      if (theme.card.glow !== null) {
        ctx.shadowColor = colour
        ctx.shadowBlur = r * 0.3
      }
      ctx.strokeStyle = colour
      ctx.lineCap = "round"
      ctx.beginPath()
      ctx.arc(0, 0, band, -Math.PI / 2, -Math.PI / 2 + (tenths / total) * Math.PI * 2)
      ctx.stroke()
      ctx.restore()
    }
    this.centredText(ctx, String(seconds), { size: Math.round(r * 0.8), weight: "bold" }, urgent ? theme.ring.urgent : theme.ring.text, 0, 0)
    ctx.restore()
  }
}
