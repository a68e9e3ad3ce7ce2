// A phone's chat screen for one conversation: the bubbles are laid out once, then any frame (how many
// messages are in, how far the list is scrolled, who is typing, how far the newest message has come
// in) is drawn from that layout. The screenshot is one settled frame; fake-text videos draw many.
import type { Image, SKRSContext2D } from "@napi-rs/canvas"
import type { ChatTheme } from "../../domain/chat-themes.ts"
import { type Conversation, initialsOf, ownerOf, type Participant } from "../../domain/conversation.ts"
import type { ChatFrameState } from "../../domain/ports/chat-painter.ts"
import { drawLine, fontFor, isRightToLeft, measureLine, type TextLine, type TextStyle, wrapText } from "./chat-text.ts"

const STATUS_BAR = 132
const LIST_PADDING = 36
const CLOCK = "9:41"
const IMAGE_MAX_SHARE = 0.62
const IMAGE_MAX_HEIGHT = 760
const TAIL = 18
/** An entering message starts this far below its place, as a share of its height... */
const ENTRANCE_RISE = 0.4
/** ...and this small, growing from its bottom corner on its sender's side, as the apps do. */
const ENTRANCE_SCALE = 0.85
/** Each typing dot pulses for this share of the cycle, the next one starting this much later. */
const DOT_PULSE = 0.5
const DOT_STAGGER = 0.2

const easeOutCubic = (t: number): number => 1 - (1 - t) ** 3

/** Overshoots a little before settling: the pop of a message landing. */
const easeOutBack = (t: number): number => {
  const c = 1.70158
  return 1 + (c + 1) * (t - 1) ** 3 + c * (t - 1) ** 2
}

/** How far typing dot `index` is lifted and darkened at `phase` of the cycle, 0 to 1. */
const dotPulse = (phase: number, index: number): number => {
  const local = (((phase - index * DOT_STAGGER) % 1) + 1) % 1
  return local < DOT_PULSE ? Math.sin(Math.PI * local / DOT_PULSE) : 0
}

interface Rect {
  readonly x: number
  readonly y: number
  readonly w: number
  readonly h: number
}

type Piece =
  | { readonly kind: "label"; readonly text: string; readonly x: number; readonly y: number }
  | { readonly kind: "image"; readonly image: Image; readonly rect: Rect; readonly mine: boolean }
  | {
    readonly kind: "bubble"
    readonly rect: Rect
    readonly mine: boolean
    readonly lines: ReadonlyArray<TextLine>
    readonly rightToLeft: boolean
    /** Tail at the top of the first bubble of a sender's run, or under the last one, as the theme has it. */
    readonly tail: boolean
  }
  | { readonly kind: "avatar"; readonly participant: Participant; readonly x: number; readonly y: number; readonly r: number }

interface LaidOutMessage {
  readonly pieces: ReadonlyArray<Piece>
  readonly from: string
  readonly mine: boolean
  /** Where the message (with its sender's name) starts and ends, in list coordinates. */
  readonly top: number
  readonly bottom: number
}

export class ChatScreen {
  readonly width: number
  readonly headerBottom: number
  private readonly messages: ReadonlyArray<LaidOutMessage>
  private readonly text: TextStyle
  private readonly meta: TextStyle
  private readonly owner: Participant
  private readonly group: boolean
  private readonly threadAvatarRadius: number

  constructor(
    ctx: SKRSContext2D,
    private readonly conversation: Conversation,
    private readonly theme: ChatTheme,
    private readonly images: ReadonlyMap<string, Image>,
    width: number
  ) {
    this.width = width
    this.headerBottom = STATUS_BAR + theme.header.height
    this.text = { size: theme.fontSize, weight: "normal" }
    this.meta = { size: Math.round(theme.fontSize * 0.62), weight: "normal" }
    this.owner = ownerOf(conversation)
    this.group = conversation.participants.length > 2
    this.threadAvatarRadius = theme.threadAvatar ? Math.round(theme.fontSize * 0.62) : 0
    this.messages = this.layout(ctx)
  }

  private layout(ctx: SKRSContext2D): ReadonlyArray<LaidOutMessage> {
    const { theme, width } = this
    const { messages, participants } = this.conversation
    const avatarRoom = this.threadAvatarRadius > 0 ? this.threadAvatarRadius * 2 + 20 : 0
    const maxBubble = Math.round(width * theme.maxBubbleShare)
    // WhatsApp prints the time (and ticks) inside the bubble, after the last line.
    const inlineMeta = theme.receipt.style === "ticks" ? measureLine(ctx, CLOCK, this.meta) + this.meta.size * 1.1 + 36 : 0
    const laid: Array<LaidOutMessage> = []
    let y = LIST_PADDING
    for (const [i, message] of messages.entries()) {
      const sender = participants.find((p) => p.id === message.from)!
      const mine = sender.id === this.owner.id
      const first = i === 0 || messages[i - 1]!.from !== message.from
      const last = i === messages.length - 1 || messages[i + 1]!.from !== message.from
      if (i > 0) y += first ? theme.groupGap : theme.messageGap
      const start = y
      const pieces: Array<Piece> = []
      const left = theme.sideMargin + avatarRoom
      if (this.group && !mine && first) {
        pieces.push({ kind: "label", text: sender.name, x: left + theme.bubblePadX, y: y + this.meta.size })
        y += Math.round(this.meta.size * 1.4)
      }
      const top = y
      const image = message.imageKey === undefined ? undefined : this.images.get(message.imageKey)
      if (image !== undefined) {
        const scale = Math.min(width * IMAGE_MAX_SHARE / image.width, IMAGE_MAX_HEIGHT / image.height)
        const w = Math.round(image.width * scale)
        const h = Math.round(image.height * scale)
        pieces.push({ kind: "image", image, mine, rect: { x: mine ? width - theme.sideMargin - w : left, y, w, h } })
        y += h
      }
      const text = message.text?.trim() ?? ""
      if (text !== "") {
        if (image !== undefined) y += theme.messageGap
        const lines = wrapText(ctx, text, this.text, maxBubble - 2 * theme.bubblePadX)
        const lastWidth = lines.at(-1)!.width
        const widest = Math.max(...lines.map((l) => l.width))
        const metaFits = inlineMeta === 0 || lastWidth + inlineMeta <= maxBubble - 2 * theme.bubblePadX
        const innerW = Math.max(widest, metaFits ? lastWidth + inlineMeta : inlineMeta)
        const innerH = lines.length * theme.lineHeight + (metaFits ? 0 : this.meta.size)
        const w = Math.round(innerW + 2 * theme.bubblePadX)
        const h = Math.round(innerH + 2 * theme.bubblePadY)
        const tail = theme.tail === "top" ? first : theme.tail === "bottom" ? last : false
        pieces.push({
          kind: "bubble",
          rect: { x: mine ? width - theme.sideMargin - w : left, y, w, h },
          mine,
          lines,
          rightToLeft: isRightToLeft(text),
          tail
        })
        y += h
      }
      if (this.threadAvatarRadius > 0 && !mine && last) {
        const r = this.threadAvatarRadius
        pieces.push({ kind: "avatar", participant: sender, x: theme.sideMargin + r, y: y - r, r })
      }
      laid.push({ pieces, from: sender.id, mine, top: start, bottom: Math.max(y, top) })
    }
    return laid
  }

  private get receiptHeight(): number {
    return this.theme.receipt.style === "below" ? Math.round(this.meta.size * 1.8) : 0
  }

  private get typingHeight(): number {
    return this.theme.groupGap + this.theme.lineHeight + 2 * this.theme.bubblePadY
  }

  /** The list's height with `visible` messages in (and the typing bubble, when someone types). */
  contentHeight(state: ChatFrameState): number {
    const shown = this.messages.slice(0, state.visible)
    const lastMine = shown.at(-1)?.mine === true
    return (shown.at(-1)?.bottom ?? 0) + (lastMine ? this.receiptHeight : 0) +
      (state.typing === null ? 0 : this.typingHeight) + LIST_PADDING
  }

  /** The screen's height when it is exactly as tall as the frame's messages need. */
  fitHeight(state: ChatFrameState): number {
    return this.headerBottom + this.contentHeight(state) + this.theme.composer.height
  }

  /**
   * Draws a frame on a canvas `width` wide and `height` tall. `listFill` is the colour behind the
   * messages; null leaves the list transparent (the chat over other pictures), header and composer drawn.
   */
  draw(ctx: SKRSContext2D, height: number, state: ChatFrameState, listFill: string | null = this.theme.background): void {
    const { theme, width } = this
    const listTop = this.headerBottom
    const listBottom = height - theme.composer.height
    const listHeight = Math.max(0, listBottom - listTop)
    const scroll = this.scrollOf(state, listHeight)
    const entrance = Math.min(1, Math.max(0, state.entrance ?? 1))

    if (listFill === null) {
      ctx.clearRect(0, listTop, width, listHeight)
    } else {
      ctx.fillStyle = listFill
      ctx.fillRect(0, 0, width, height)
    }
    ctx.save()
    ctx.beginPath()
    ctx.rect(0, listTop, width, listHeight)
    ctx.clip()
    ctx.translate(0, listTop - scroll)
    const shown = this.messages.slice(0, state.visible)
    for (const [i, message] of shown.entries()) {
      if (i === shown.length - 1 && entrance < 1) this.drawEntering(ctx, message, entrance)
      else for (const piece of message.pieces) this.drawPiece(ctx, piece)
    }
    const lastShown = shown.at(-1)
    let y = lastShown?.bottom ?? 0
    if (lastShown?.mine === true && theme.receipt.style === "below") {
      ctx.save()
      ctx.globalAlpha = Math.min(1, entrance * 2)
      ctx.font = fontFor({ ...this.meta, weight: "bold" })
      ctx.fillStyle = theme.meta
      ctx.textAlign = "right"
      ctx.fillText(theme.receipt.text, width - theme.sideMargin - 10, y + this.meta.size * 1.3)
      ctx.restore()
      y += this.receiptHeight
    }
    if (state.typing !== null) this.drawTyping(ctx, y + theme.groupGap, state.typing, state.typingPhase)
    ctx.restore()

    this.drawHeader(ctx)
    this.drawStatusBar(ctx)
    this.drawComposer(ctx, listBottom)
  }

  /**
   * How far the list is scrolled. Kept at the newest message, as the app does; while a message
   * enters, the list glides from where it was before (under the sender's typing bubble, for a
   * received one) to where it is with the message in.
   */
  private scrollOf(state: ChatFrameState, listHeight: number): number {
    const pinned = (s: ChatFrameState) => Math.max(0, this.contentHeight(s) - listHeight)
    const to = pinned(state)
    if (state.scroll !== null) return Math.min(to, Math.max(0, state.scroll))
    const entrance = state.entrance ?? 1
    const newest = this.messages[state.visible - 1]
    if (entrance >= 1 || newest === undefined) return to
    const from = pinned({ visible: state.visible - 1, scroll: null, typing: newest.mine ? null : newest.from })
    return from + (to - from) * easeOutCubic(Math.max(0, entrance))
  }

  /** The newest message coming in: rising into place and growing from its sender's bottom corner, fading in over the first half. */
  private drawEntering(ctx: SKRSContext2D, message: LaidOutMessage, entrance: number): void {
    const { theme, width } = this
    const pivotX = message.mine ? width - theme.sideMargin : theme.sideMargin
    const lift = (1 - easeOutCubic(entrance)) * ENTRANCE_RISE * (message.bottom - message.top)
    const scale = ENTRANCE_SCALE + (1 - ENTRANCE_SCALE) * easeOutBack(entrance)
    ctx.save()
    ctx.globalAlpha = Math.min(1, entrance * 2)
    ctx.translate(pivotX, message.bottom + lift)
    ctx.scale(scale, scale)
    ctx.translate(-pivotX, -message.bottom)
    for (const piece of message.pieces) this.drawPiece(ctx, piece)
    ctx.restore()
  }

  private drawPiece(ctx: SKRSContext2D, piece: Piece): void {
    const { theme } = this
    switch (piece.kind) {
      case "label":
        ctx.font = fontFor(this.meta)
        ctx.fillStyle = theme.senderName
        ctx.fillText(piece.text, piece.x, piece.y)
        return
      case "avatar":
        this.drawAvatar(ctx, piece.participant, piece.x, piece.y, piece.r)
        return
      case "image": {
        const { x, y, w, h } = piece.rect
        ctx.save()
        ctx.beginPath()
        ctx.roundRect(x, y, w, h, theme.bubbleRadius)
        ctx.clip()
        ctx.drawImage(piece.image, x, y, w, h)
        ctx.restore()
        return
      }
      case "bubble": {
        const colours = piece.mine ? theme.sent : theme.received
        this.bubbleShape(ctx, piece.rect, piece.mine, piece.tail, colours.fill)
        const { x, y, w, h } = piece.rect
        const textX = piece.rightToLeft ? x + w - theme.bubblePadX : x + theme.bubblePadX
        for (const [i, line] of piece.lines.entries()) {
          const baseline = y + theme.bubblePadY + i * theme.lineHeight + (theme.lineHeight + theme.fontSize * 0.72) / 2
          drawLine(ctx, line, textX, baseline, this.text, colours.text, piece.rightToLeft)
        }
        if (theme.receipt.style === "ticks") this.drawTime(ctx, x + w - theme.bubblePadX * 0.6, y + h - theme.bubblePadY * 0.7, piece.mine)
        return
      }
    }
  }

  private bubbleShape(ctx: SKRSContext2D, rect: Rect, mine: boolean, tail: boolean, fill: string): void {
    const { theme } = this
    const { x, y, w, h } = rect
    const r = Math.min(theme.bubbleRadius, h / 2)
    ctx.fillStyle = fill
    ctx.beginPath()
    if (tail && theme.tail === "top") {
      // WhatsApp: a square top corner with a small triangle pointing out of it.
      ctx.roundRect(x, y, w, h, mine ? [r, 0, r, r] : [0, r, r, r])
      ctx.fill()
      ctx.beginPath()
      const edge = mine ? x + w : x
      const out = mine ? TAIL : -TAIL
      ctx.moveTo(edge - out, y)
      ctx.lineTo(edge + out, y)
      ctx.lineTo(edge, y + TAIL * 1.4)
      ctx.closePath()
      ctx.fill()
      return
    }
    ctx.roundRect(x, y, w, h, r)
    ctx.fill()
    if (tail && theme.tail === "bottom") {
      // iMessage: a curl at the bottom corner, sweeping out and back into the bubble.
      const edge = mine ? x + w : x
      const dir = mine ? 1 : -1
      const bottom = y + h
      ctx.beginPath()
      ctx.moveTo(edge - dir * 26, bottom - 44)
      ctx.quadraticCurveTo(edge - dir * 2, bottom - 6, edge + dir * TAIL, bottom)
      ctx.quadraticCurveTo(edge - dir * 14, bottom + 2, edge - dir * 40, bottom - 12)
      ctx.closePath()
      ctx.fill()
    }
  }

  private drawTime(ctx: SKRSContext2D, right: number, baseline: number, mine: boolean): void {
    const { theme } = this
    const ticks = mine && theme.receipt.style === "ticks" ? theme.receipt.tick : null
    const tickRoom = ticks === null ? 0 : this.meta.size * 1.1
    ctx.font = fontFor(this.meta)
    ctx.fillStyle = theme.meta
    ctx.textAlign = "right"
    ctx.fillText(CLOCK, right - tickRoom, baseline)
    ctx.textAlign = "left"
    if (ticks === null) return
    const s = this.meta.size * 0.42
    ctx.strokeStyle = ticks
    ctx.lineWidth = 3
    ctx.lineCap = "round"
    for (const dx of [0, s * 0.8]) {
      const x = right - tickRoom + 10 + dx
      ctx.beginPath()
      ctx.moveTo(x, baseline - s * 0.9)
      ctx.lineTo(x + s * 0.45, baseline - s * 0.4)
      ctx.lineTo(x + s * 1.3, baseline - s * 1.6)
      ctx.stroke()
    }
  }

  /** The typing bubble; with a `phase`, its dots pulse in turn (each lifts and darkens), else they are still. */
  private drawTyping(ctx: SKRSContext2D, y: number, participantId: string, phase: number | undefined): void {
    const { theme } = this
    const avatarRoom = this.threadAvatarRadius > 0 ? this.threadAvatarRadius * 2 + 20 : 0
    const h = theme.lineHeight + 2 * theme.bubblePadY
    const rect = { x: theme.sideMargin + avatarRoom, y, w: Math.round(h * 1.9), h }
    this.bubbleShape(ctx, rect, false, theme.tail !== "none", theme.received.fill)
    ctx.save()
    ctx.fillStyle = theme.meta
    for (let i = 0; i < 3; i++) {
      const pulse = phase === undefined ? null : dotPulse(phase, i)
      if (pulse !== null) ctx.globalAlpha = 0.4 + 0.6 * pulse
      ctx.beginPath()
      ctx.arc(rect.x + rect.w * (0.3 + 0.2 * i), y + h / 2 - (pulse ?? 0) * h * 0.08, h * 0.09, 0, Math.PI * 2)
      ctx.fill()
    }
    ctx.restore()
    const typist = this.conversation.participants.find((p) => p.id === participantId)
    if (this.threadAvatarRadius > 0 && typist !== undefined) {
      this.drawAvatar(ctx, typist, theme.sideMargin + this.threadAvatarRadius, y + h - this.threadAvatarRadius, this.threadAvatarRadius)
    }
  }

  private drawAvatar(ctx: SKRSContext2D, participant: Participant, cx: number, cy: number, r: number): void {
    const image = participant.avatarKey === undefined ? undefined : this.images.get(participant.avatarKey)
    ctx.save()
    ctx.beginPath()
    ctx.arc(cx, cy, r, 0, Math.PI * 2)
    ctx.clip()
    if (image !== undefined) {
      // Cover the disc: crop the picture's middle square.
      const side = Math.min(image.width, image.height)
      ctx.drawImage(image, (image.width - side) / 2, (image.height - side) / 2, side, side, cx - r, cy - r, 2 * r, 2 * r)
    } else {
      const shade = ctx.createLinearGradient(cx, cy - r, cx, cy + r)
      shade.addColorStop(0, "#A5ABB8")
      shade.addColorStop(1, "#858994")
      ctx.fillStyle = shade
      ctx.fillRect(cx - r, cy - r, 2 * r, 2 * r)
      ctx.fillStyle = "#FFFFFF"
      ctx.font = fontFor({ size: Math.round(r * 0.9), weight: "bold" })
      ctx.textAlign = "center"
      ctx.textBaseline = "middle"
      ctx.fillText(initialsOf(participant.name), cx, cy + r * 0.04)
      ctx.textAlign = "left"
      ctx.textBaseline = "alphabetic"
    }
    ctx.restore()
  }

  /** The other participants' names: one person, or a group's first names. */
  private title(ctx: SKRSContext2D, style: TextStyle, maxWidth: number): string {
    const others = this.conversation.participants.filter((p) => p.id !== this.owner.id)
    const full = others.length === 1 ? others[0]!.name : others.map((p) => p.name.trim().split(/\s+/)[0]).join(", ")
    if (measureLine(ctx, full, style) <= maxWidth) return full
    const chars = Array.from(full)
    while (chars.length > 1 && measureLine(ctx, `${chars.join("")}…`, style) > maxWidth) chars.pop()
    return `${chars.join("").trimEnd()}…`
  }

  private drawHeader(ctx: SKRSContext2D): void {
    const { theme, width } = this
    const header = theme.header
    ctx.fillStyle = header.background
    ctx.fillRect(0, 0, width, this.headerBottom)
    if (header.divider !== null) {
      ctx.fillStyle = header.divider
      ctx.fillRect(0, this.headerBottom - 2, width, 2)
    }
    const others = this.conversation.participants.filter((p) => p.id !== this.owner.id)
    const avatarOf = others[0]!
    ctx.strokeStyle = header.accent
    ctx.lineWidth = 7
    ctx.lineCap = "round"
    ctx.lineJoin = "round"
    if (header.layout === "centered") {
      const cy = STATUS_BAR + 75
      this.chevron(ctx, 52, cy, 26)
      this.drawAvatar(ctx, avatarOf, width / 2, cy, 68)
      const style: TextStyle = { size: 34, weight: "normal" }
      const name = this.title(ctx, style, width * 0.6)
      ctx.font = fontFor(style)
      ctx.fillStyle = header.title
      ctx.textAlign = "center"
      ctx.fillText(name, width / 2, cy + 68 + 52)
      ctx.textAlign = "left"
      return
    }
    const cy = STATUS_BAR + header.height / 2
    this.chevron(ctx, 44, cy, 24)
    this.drawAvatar(ctx, avatarOf, 150, cy, 54)
    const style: TextStyle = { size: 46, weight: "bold" }
    const name = this.title(ctx, style, width - 480)
    ctx.font = fontFor(style)
    ctx.fillStyle = header.title
    ctx.fillText(name, 230, header.status === null ? cy + 16 : cy - 4)
    if (header.status !== null) {
      ctx.font = fontFor({ size: 32, weight: "normal" })
      ctx.fillStyle = header.subtitle
      ctx.fillText(header.status, 230, cy + 42)
    }
    // A video camera, then a phone handset's stand-in (three dots): the call buttons of both apps.
    const x = width - 230
    ctx.strokeRect(x, cy - 22, 56, 44)
    ctx.beginPath()
    ctx.moveTo(x + 56, cy - 6)
    ctx.lineTo(x + 82, cy - 20)
    ctx.lineTo(x + 82, cy + 20)
    ctx.lineTo(x + 56, cy + 6)
    ctx.stroke()
    ctx.fillStyle = header.accent
    for (const dy of [-24, 0, 24]) {
      ctx.beginPath()
      ctx.arc(width - 60, cy + dy, 6, 0, Math.PI * 2)
      ctx.fill()
    }
  }

  private chevron(ctx: SKRSContext2D, x: number, cy: number, size: number): void {
    ctx.beginPath()
    ctx.moveTo(x + size * 0.7, cy - size)
    ctx.lineTo(x, cy)
    ctx.lineTo(x + size * 0.7, cy + size)
    ctx.stroke()
  }

  private drawStatusBar(ctx: SKRSContext2D): void {
    const { theme, width } = this
    const colour = theme.statusBarText
    const y = 84
    ctx.fillStyle = colour
    ctx.font = fontFor({ size: 46, weight: "bold" })
    ctx.textAlign = "center"
    ctx.fillText(CLOCK, 150, y)
    ctx.textAlign = "left"
    // Signal bars, wifi arcs and the battery, drawn rather than typed: no font has them.
    const right = width - 60
    for (let i = 0; i < 4; i++) ctx.fillRect(right - 250 + i * 18, y - 12 - i * 8, 12, 12 + i * 8)
    ctx.strokeStyle = colour
    ctx.lineWidth = 6
    ctx.lineCap = "round"
    for (const r of [10, 22, 34]) {
      ctx.beginPath()
      ctx.arc(right - 130, y + 2, r, Math.PI * 1.25, Math.PI * 1.75)
      ctx.stroke()
    }
    ctx.lineWidth = 3
    ctx.beginPath()
    ctx.roundRect(right - 78, y - 32, 70, 34, 9)
    ctx.stroke()
    ctx.fillRect(right - 73, y - 27, 50, 24)
    ctx.fillRect(right - 5, y - 20, 5, 10)
  }

  private drawComposer(ctx: SKRSContext2D, top: number): void {
    const { theme, width } = this
    const c = theme.composer
    ctx.fillStyle = c.background
    ctx.fillRect(0, top, width, c.height)
    const h = 104
    const cy = top + c.height / 2
    const button = { r: h / 2, x: c.buttonSide === "left" ? 40 + h / 2 : width - 40 - h / 2 }
    const fieldX = c.buttonSide === "left" ? 40 + h + 24 : 30
    const fieldW = c.buttonSide === "left" ? width - fieldX - 40 : width - 30 - h - 24 - 40
    ctx.fillStyle = c.field
    ctx.beginPath()
    ctx.roundRect(fieldX, cy - h / 2, fieldW, h, h / 2)
    ctx.fill()
    if (c.fieldBorder !== null) {
      ctx.strokeStyle = c.fieldBorder
      ctx.lineWidth = 3
      ctx.stroke()
    }
    ctx.font = fontFor({ size: 42, weight: "normal" })
    ctx.fillStyle = c.placeholderText
    ctx.fillText(c.placeholder, fieldX + 40, cy + 15)
    ctx.fillStyle = c.accent
    ctx.beginPath()
    ctx.arc(button.x, cy, button.r * (c.buttonSide === "left" ? 0.8 : 1), 0, Math.PI * 2)
    ctx.fill()
    ctx.strokeStyle = "#FFFFFF"
    ctx.fillStyle = "#FFFFFF"
    ctx.lineWidth = 7
    ctx.beginPath()
    if (c.buttonSide === "left") {
      // "+": attachments.
      ctx.moveTo(button.x - 20, cy)
      ctx.lineTo(button.x + 20, cy)
      ctx.moveTo(button.x, cy - 20)
      ctx.lineTo(button.x, cy + 20)
      ctx.stroke()
      return
    }
    // A microphone: capsule, cradle and stand.
    ctx.roundRect(button.x - 11, cy - 30, 22, 40, 11)
    ctx.fill()
    ctx.lineWidth = 5
    ctx.beginPath()
    ctx.arc(button.x, cy - 4, 20, 0, Math.PI)
    ctx.moveTo(button.x, cy + 16)
    ctx.lineTo(button.x, cy + 28)
    ctx.stroke()
  }
}
