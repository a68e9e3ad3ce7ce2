// When each message of a fake-text video happens: the other side types (the typing bubble), the
// message pops in with its sound, then its sender's voice reads it. The video's length follows from
// the length of each message's speech; any frame's picture follows from the time (`chatMomentAt`).
import { Schema } from "effect"
import { type Conversation, ownerOf } from "./conversation.ts"

/** The empty chat shows this long before the first message, so a video does not open on a sound. */
export const CHAT_LEAD_IN_SECONDS = 0.5
/** How long a message's entrance (the app's pop and slide) lasts. */
export const APPEAR_SECONDS = 0.35
/** A sent message appears this long after the previous one ends: the owner's thumb on "send". */
export const SEND_PAUSE_SECONDS = 0.3
/** Between one message's speech ending and the next message's cycle starting. */
export const MESSAGE_GAP_SECONDS = 0.35
/** Speech starts once the bubble has mostly landed. */
export const SPEECH_AFTER_APPEAR_SECONDS = 0.15
/** A picture with no text is looked at for this long. */
export const PICTURE_HOLD_SECONDS = 1.5
/** After the last message, the screen holds this long. */
export const CHAT_TAIL_SECONDS = 1
/** The typing bubble's three dots pulse once in this long. */
export const TYPING_CYCLE_SECONDS = 1.2

/** The other side types for a time that grows with the message, within bounds that feel like a person. */
export const typingSeconds = (characters: number): number => Math.min(2.2, Math.max(1, 0.7 + 0.025 * characters))

export const ChatBeat = Schema.Struct({
  message: Schema.Int.annotations({ description: "Index of the message." }),
  typingAt: Schema.NullOr(Schema.Number).annotations({ description: "When the sender's typing bubble shows (received messages)." }),
  appearAt: Schema.Number,
  speechAt: Schema.Number,
  speechSeconds: Schema.Number.annotations({ description: "0 for a picture without text." }),
  sound: Schema.Literal("sent", "received")
})
export type ChatBeat = typeof ChatBeat.Type

export const ChatSchedule = Schema.Struct({
  beats: Schema.Array(ChatBeat),
  durationSeconds: Schema.Number
})
export type ChatSchedule = typeof ChatSchedule.Type

/** Lays the messages out in time, given how long each one's speech lasts (0 for no speech). */
export const chatSchedule = (conversation: Conversation, speechSeconds: ReadonlyArray<number>): ChatSchedule => {
  const owner = ownerOf(conversation).id
  const beats: Array<ChatBeat> = []
  let t = CHAT_LEAD_IN_SECONDS
  for (const [i, message] of conversation.messages.entries()) {
    t += message.delaySeconds ?? 0
    const mine = message.from === owner
    const typingAt = mine ? null : t
    const appearAt = mine ? t + (i === 0 ? 0 : SEND_PAUSE_SECONDS) : t + typingSeconds(Array.from(message.text ?? "").length)
    const speech = speechSeconds[i] ?? 0
    const speechAt = appearAt + SPEECH_AFTER_APPEAR_SECONDS
    beats.push({ message: i, typingAt, appearAt, speechAt, speechSeconds: speech, sound: mine ? "sent" : "received" })
    t = speech > 0 ? speechAt + speech + MESSAGE_GAP_SECONDS : appearAt + PICTURE_HOLD_SECONDS
  }
  return { beats, durationSeconds: t - MESSAGE_GAP_SECONDS + CHAT_TAIL_SECONDS }
}

/** What the chat screen shows at one instant. */
export interface ChatMoment {
  /** How many messages, from the first, are on screen. */
  readonly visible: number
  /** The newest visible message's entrance, 0 (just starting) to 1 (settled). */
  readonly entrance: number
  /** Who is typing (their typing bubble shows under the messages), or null. */
  readonly typing: string | null
  /** Where the typing dots are in their pulse, 0 to 1. */
  readonly typingPhase: number
}

export const chatMomentAt = (conversation: Conversation, schedule: ChatSchedule, seconds: number): ChatMoment => {
  const shown = schedule.beats.filter((beat) => beat.appearAt <= seconds)
  const newest = shown.at(-1)
  const next = schedule.beats[shown.length]
  const typing = next !== undefined && next.typingAt !== null && next.typingAt <= seconds ? next : undefined
  return {
    visible: shown.length,
    entrance: newest === undefined ? 1 : Math.min(1, (seconds - newest.appearAt) / APPEAR_SECONDS),
    typing: typing === undefined ? null : conversation.messages[typing.message]!.from,
    typingPhase: typing === undefined ? 0 : (((seconds - typing.typingAt!) % TYPING_CYCLE_SECONDS) / TYPING_CYCLE_SECONDS)
  }
}
