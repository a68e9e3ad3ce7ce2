// The chat painter draws what a phone shows: a png of the asked size, received bubbles on the left
// and sent ones on the right in the theme's colours where the layout puts them, emoji in colour, a
// typing bubble when someone types, and `fit` as tall as the messages.
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { paintChat } from "../../adapters/chat/canvas-chat-painter.ts"
import { CHAT_THEMES, type ChatTheme } from "../../domain/chat-themes.ts"
import type { Conversation } from "../../domain/conversation.ts"
import type { ChatFrameState } from "../../domain/ports/chat-painter.ts"

const STATUS_BAR = 132
const LIST_PADDING = 36
const WIDTH = 1080

const pair = (messages: Conversation["messages"]): Conversation => ({
  participants: [{ id: "me", name: "Sam", me: true }, { id: "maya", name: "Maya Lopez" }],
  messages
})

const everything = (c: Conversation): ChatFrameState => ({ visible: c.messages.length, scroll: null, typing: null })

const paint = async (conversation: Conversation, theme: ChatTheme, height: number | "fit" = 1920, state = everything(conversation)) => {
  const picture = await Effect.runPromise(paintChat({ conversation, theme, images: new Map(), width: WIDTH, height, state }))
  const image = await loadImage(Buffer.from(picture.png))
  const canvas = createCanvas(image.width, image.height)
  const ctx = canvas.getContext("2d")
  ctx.drawImage(image, 0, 0)
  const data = ctx.getImageData(0, 0, image.width, image.height).data
  const hex = (x: number, y: number) => {
    const i = (Math.round(y) * image.width + Math.round(x)) * 4
    return `#${[data[i]!, data[i + 1]!, data[i + 2]!].map((v) => v.toString(16).padStart(2, "0")).join("")}`.toUpperCase()
  }
  const colourful = (x0: number, y0: number, x1: number, y1: number) => {
    let n = 0
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const i = (y * image.width + x) * 4
        if (Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 100) n++
      }
    }
    return n
  }
  return { picture, image, hex, colourful }
}

/** Where the layout puts bubbles: the list starts under the header; a one-line bubble is a line and its padding tall. */
const geometry = (theme: ChatTheme) => {
  const listTop = STATUS_BAR + theme.header.height + LIST_PADDING
  const oneLine = theme.lineHeight + 2 * theme.bubblePadY
  const avatarRoom = theme.threadAvatar ? Math.round(theme.fontSize * 0.62) * 2 + 20 : 0
  return { listTop, oneLine, leftX: theme.sideMargin + avatarRoom + 80, rightX: WIDTH - theme.sideMargin - 80 }
}

describe.each(CHAT_THEMES.map((t) => [t.id, t] as const))("the %s chat screen", (_, theme) => {
  it("is a 1080x1920 png with the received bubble on the left and the sent one on the right, in the theme's colours", async () => {
    const conversation = pair([{ from: "maya", text: "are you coming tonight?" }, { from: "me", text: "yes, leaving now" }])
    const { picture, image, hex } = await paint(conversation, theme)
    expect([picture.width, picture.height, image.width, image.height]).toEqual([1080, 1920, 1080, 1920])
    const { listTop, oneLine, leftX, rightX } = geometry(theme)
    const sentTop = listTop + oneLine + theme.groupGap
    expect(hex(leftX, listTop + 8), "received bubble").toBe(theme.received.fill)
    expect(hex(rightX, listTop + 8), "nothing right of the received bubble").toBe(theme.background)
    expect(hex(rightX, sentTop + 8), "sent bubble").toBe(theme.sent.fill)
    expect(hex(leftX, sentTop + 8), "nothing left of the sent bubble").toBe(theme.background)
    expect(hex(WIDTH / 2, sentTop + oneLine + 150), "empty list below").toBe(theme.background)
    expect(hex(WIDTH / 2, 5), "header").toBe(theme.header.background)
  })

  it("draws emoji in colour", async () => {
    const { listTop, oneLine } = geometry(theme)
    const { colourful } = await paint(pair([{ from: "maya", text: "😂😂😂" }]), theme)
    expect(colourful(0, listTop, WIDTH, listTop + oneLine)).toBeGreaterThan(2000)
    const { colourful: plain } = await paint(pair([{ from: "maya", text: "haha" }]), theme)
    expect(plain(0, listTop, WIDTH, listTop + oneLine)).toBeLessThan(200)
  })
})

describe("frames and sizes", () => {
  const theme = CHAT_THEMES[0]!
  const long = pair(Array.from({ length: 30 }, (_, i) => ({ from: i % 2 === 0 ? "maya" : "me", text: `message number ${i}` })))

  it("shows the typing bubble of the participant who types, under the visible messages", async () => {
    const conversation = pair([{ from: "me", text: "you there?" }, { from: "maya", text: "yes" }])
    const { listTop, oneLine, leftX } = geometry(theme)
    // Under the sent message and its "Delivered" receipt.
    const typingTop = listTop + oneLine + Math.round(Math.round(theme.fontSize * 0.62) * 1.8) + theme.groupGap
    const typing = await paint(conversation, theme, 1920, { visible: 1, scroll: null, typing: "maya" })
    expect(typing.hex(leftX - 40, typingTop + oneLine / 2 - 20)).toBe(theme.received.fill)
    const quiet = await paint(conversation, theme, 1920, { visible: 1, scroll: null, typing: null })
    expect(quiet.hex(leftX - 40, typingTop + oneLine / 2 - 20)).toBe(theme.background)
  })

  it("fit is as tall as the messages: short for two, taller than a phone for thirty", async () => {
    const short = await paint(pair([{ from: "maya", text: "hi" }, { from: "me", text: "hello" }]), theme, "fit")
    expect(short.picture.height).toBeLessThan(1000)
    expect(short.picture.height).toBeGreaterThan(STATUS_BAR + theme.header.height + theme.composer.height)
    const tall = await paint(long, theme, "fit")
    expect(tall.picture.height).toBeGreaterThan(1920)
  })

  it("a full phone screen shows the newest message at the bottom, or the oldest when scrolled to the top", async () => {
    const { oneLine, leftX, rightX } = geometry(theme)
    const listBottom = 1920 - theme.composer.height
    // The newest is sent (index 29, by me): it sits just above the "Delivered" receipt and the composer.
    const newest = await paint(long, theme)
    const receipt = Math.round(Math.round(theme.fontSize * 0.62) * 1.8)
    expect(newest.hex(rightX, listBottom - LIST_PADDING - receipt - oneLine + 8)).toBe(theme.sent.fill)
    const top = await paint(long, theme, 1920, { visible: 30, scroll: 0, typing: null })
    expect(top.hex(leftX, geometry(theme).listTop + 8)).toBe(theme.received.fill)
  })
})
