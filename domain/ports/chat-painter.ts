import { Context, type Effect } from "effect"
import type { ChatTheme } from "../chat-themes.ts"
import type { Conversation } from "../conversation.ts"
import type { WorkFailed } from "../errors.ts"

/** What a frame of the chat screen shows: the screenshot is the state with every message in. */
export interface ChatFrameState {
  /** How many messages, from the first, are on screen. */
  readonly visible: number
  /** Pixels the message list is scrolled from its top; null = scrolled to the newest message, as the app keeps it. */
  readonly scroll: number | null
  /** A participant whose typing bubble shows under the visible messages, or null. */
  readonly typing: string | null
  /**
   * The newest visible message's entrance, 0 (just sent) to 1 (settled; the default): it rises, grows
   * and fades in while the list scrolls to make room for it. Videos animate it; screenshots are settled.
   */
  readonly entrance?: number
  /** Where the typing bubble's three dots are in their pulse, 0 to 1; without it they are still. */
  readonly typingPhase?: number
}

export interface ChatPaintRequest {
  readonly conversation: Conversation
  readonly theme: ChatTheme
  /** The bytes of every `avatarKey` and `imageKey` the conversation names, by key. */
  readonly images: ReadonlyMap<string, Uint8Array>
  readonly width: number
  /** A phone screen's height, or `fit`: as tall as the visible messages need. */
  readonly height: number | "fit"
  readonly state: ChatFrameState
}

export interface ChatPicture {
  readonly png: Uint8Array
  readonly width: number
  readonly height: number
}

export interface ChatPainterShape {
  /** Fails when a picture the conversation names cannot be decoded. */
  readonly paint: (request: ChatPaintRequest) => Effect.Effect<ChatPicture, WorkFailed>
}
export class ChatPainter extends Context.Tag("ChatPainter")<ChatPainter, ChatPainterShape>() {}
