// The chat apps a conversation can be drawn as: colours, bubble shapes, type sizes and header layout,
// as data the painter reads. Lengths are pixels on a 1080-pixel-wide phone screen (3x a 360pt phone).
import { Schema } from "effect"

export interface ChatTheme {
  readonly id: string
  readonly name: string
  readonly background: string
  readonly statusBarText: string
  readonly header: {
    /** `centered`: avatar above the name in the middle (iMessage); `bar`: back arrow, avatar and name from the left. */
    readonly layout: "centered" | "bar"
    readonly height: number
    readonly background: string
    readonly title: string
    readonly subtitle: string
    /** Back arrow and call icons. */
    readonly accent: string
    readonly divider: string | null
    /** Under the name in a `bar` header ("online"), or null. */
    readonly status: string | null
  }
  readonly sent: { readonly fill: string; readonly text: string }
  readonly received: { readonly fill: string; readonly text: string }
  /** Sender names above received messages in group chats. */
  readonly senderName: string
  /** Timestamps and read receipts. */
  readonly meta: string
  /**
   * `below`: a word under the newest sent message (iMessage "Delivered", Instagram "Seen");
   * `ticks`: time and double ticks inside each sent bubble (WhatsApp).
   */
  readonly receipt: { readonly style: "below"; readonly text: string } | { readonly style: "ticks"; readonly tick: string }
  /** Where a group of bubbles from one sender has its tail: under the last one, at the top of the first, or none. */
  readonly tail: "bottom" | "top" | "none"
  readonly bubbleRadius: number
  readonly fontSize: number
  readonly lineHeight: number
  readonly bubblePadX: number
  readonly bubblePadY: number
  /** Widest a bubble may be, as a share of the screen width. */
  readonly maxBubbleShare: number
  readonly sideMargin: number
  /** Between bubbles of one sender, and between senders. */
  readonly messageGap: number
  readonly groupGap: number
  /** A small avatar beside received messages (Instagram). */
  readonly threadAvatar: boolean
  readonly composer: {
    readonly height: number
    readonly background: string
    readonly field: string
    readonly fieldBorder: string | null
    readonly placeholder: string
    readonly placeholderText: string
    readonly accent: string
    /** The round button beside the field: "+" on the left (iMessage, Instagram's camera) or the microphone on the right (WhatsApp). */
    readonly buttonSide: "left" | "right"
  }
}

const IMESSAGE_BLUE = "#0B84FE"

const imessage = (dark: boolean): ChatTheme => ({
  id: dark ? "imessage-dark" : "imessage-light",
  name: dark ? "iMessage (dark)" : "iMessage (light)",
  background: dark ? "#000000" : "#FFFFFF",
  statusBarText: dark ? "#FFFFFF" : "#000000",
  header: {
    layout: "centered",
    height: 300,
    background: dark ? "#1C1C1E" : "#F5F5F7",
    title: dark ? "#FFFFFF" : "#000000",
    subtitle: "#8E8E93",
    accent: IMESSAGE_BLUE,
    divider: dark ? "#38383A" : "#D1D1D6",
    status: null
  },
  sent: { fill: IMESSAGE_BLUE, text: "#FFFFFF" },
  received: { fill: dark ? "#262628" : "#E9E9EB", text: dark ? "#FFFFFF" : "#000000" },
  senderName: "#8E8E93",
  meta: "#8E8E93",
  receipt: { style: "below", text: "Delivered" },
  tail: "bottom",
  bubbleRadius: 54,
  fontSize: 50,
  lineHeight: 62,
  bubblePadX: 38,
  bubblePadY: 22,
  maxBubbleShare: 0.72,
  sideMargin: 36,
  messageGap: 6,
  groupGap: 30,
  threadAvatar: false,
  composer: {
    height: 170,
    background: dark ? "#000000" : "#FFFFFF",
    field: dark ? "#000000" : "#FFFFFF",
    fieldBorder: dark ? "#3A3A3C" : "#C7C7CC",
    placeholder: "iMessage",
    placeholderText: "#8E8E93",
    accent: "#8E8E93",
    buttonSide: "left"
  }
})

const whatsapp: ChatTheme = {
  id: "whatsapp",
  name: "WhatsApp",
  background: "#EFEAE2",
  statusBarText: "#FFFFFF",
  header: {
    layout: "bar",
    height: 170,
    background: "#008069",
    title: "#FFFFFF",
    subtitle: "#D9F2EC",
    accent: "#FFFFFF",
    divider: null,
    status: "online"
  },
  sent: { fill: "#D9FDD3", text: "#111B21" },
  received: { fill: "#FFFFFF", text: "#111B21" },
  senderName: "#06CF9C",
  meta: "#667781",
  receipt: { style: "ticks", tick: "#53BDEB" },
  tail: "top",
  bubbleRadius: 22,
  fontSize: 46,
  lineHeight: 58,
  bubblePadX: 28,
  bubblePadY: 16,
  maxBubbleShare: 0.78,
  sideMargin: 44,
  messageGap: 8,
  groupGap: 24,
  threadAvatar: false,
  composer: {
    height: 170,
    background: "#EFEAE2",
    field: "#FFFFFF",
    fieldBorder: null,
    placeholder: "Message",
    placeholderText: "#8696A0",
    accent: "#00A884",
    buttonSide: "right"
  }
}

const instagram: ChatTheme = {
  id: "instagram",
  name: "Instagram DM",
  background: "#FFFFFF",
  statusBarText: "#000000",
  header: {
    layout: "bar",
    height: 170,
    background: "#FFFFFF",
    title: "#000000",
    subtitle: "#737373",
    accent: "#000000",
    divider: "#DBDBDB",
    status: "Active now"
  },
  sent: { fill: "#7B3FF2", text: "#FFFFFF" },
  received: { fill: "#EFEFEF", text: "#000000" },
  senderName: "#737373",
  meta: "#737373",
  receipt: { style: "below", text: "Seen" },
  tail: "none",
  bubbleRadius: 60,
  fontSize: 46,
  lineHeight: 58,
  bubblePadX: 38,
  bubblePadY: 26,
  maxBubbleShare: 0.7,
  sideMargin: 36,
  messageGap: 6,
  groupGap: 28,
  threadAvatar: true,
  composer: {
    height: 170,
    background: "#FFFFFF",
    field: "#FFFFFF",
    fieldBorder: "#DBDBDB",
    placeholder: "Message...",
    placeholderText: "#737373",
    accent: "#3797F0",
    buttonSide: "left"
  }
}

export const CHAT_THEMES: ReadonlyArray<ChatTheme> = [imessage(false), imessage(true), whatsapp, instagram]

export const ChatThemeId = Schema.Literal("imessage-light", "imessage-dark", "whatsapp", "instagram").annotations({
  description: "The chat app drawn: `imessage-light`, `imessage-dark`, `whatsapp` or `instagram` (Instagram DM)."
})
export type ChatThemeId = typeof ChatThemeId.Type

export const chatTheme = (id: ChatThemeId): ChatTheme => CHAT_THEMES.find((t) => t.id === id)!
