// A chat conversation as fake-text screenshots and videos take it: who talks, what each says, in
// which app. The schema checks each field; `conversationProblem` checks what ties fields together
// (senders that exist, one phone owner), naming the field as a JSON path.
import { Schema } from "effect"
import { ChatThemeId } from "./chat-themes.ts"

export const MIN_PARTICIPANTS = 2
/** A group chat header still reads at 10 names; more would not fit one. */
export const MAX_PARTICIPANTS = 10
/** A long conversation is a series of videos; 200 messages is about ten minutes read aloud. */
export const MAX_MESSAGES = 200
export const MAX_MESSAGE_CHARACTERS = 1000
export const MAX_DELAY_SECONDS = 30

export const ParticipantId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{1,40}$/, { message: () => "a participant id is 1 to 40 letters, digits, `_` or `-`" })
).annotations({ description: "The participant's id, which messages name in `from`." })

export const Participant = Schema.Struct({
  id: ParticipantId,
  // Built-in refinements, so the rule shows in the JSON Schema (a custom filter would drop it, and its description).
  name: Schema.String.pipe(
    Schema.pattern(/\S/, { message: () => "name must not be blank" }),
    Schema.maxLength(60, { message: () => "name must be at most 60 characters" })
  ).annotations({ description: "Shown in the header and above group messages." }),
  avatarKey: Schema.optional(Schema.String.annotations({
    description: "Key of an uploaded picture (POST /v1/files) for the avatar; without one, the name's initials on a disc."
  })),
  voiceId: Schema.optional(Schema.String.annotations({ description: "The voice that reads this participant's messages (fake-text videos)." })),
  me: Schema.optional(Schema.Boolean.annotations({
    description: "The phone's owner: their messages are the sent ones, on the right. At most one; default the first participant."
  }))
}).annotations({ identifier: "Participant", description: "Someone in the chat." })
export type Participant = typeof Participant.Type

export const ChatMessage = Schema.Struct({
  from: ParticipantId.annotations({ description: "The id of the participant who sends it." }),
  text: Schema.optional(Schema.String.pipe(
    Schema.maxLength(MAX_MESSAGE_CHARACTERS, { message: () => `text must be at most ${MAX_MESSAGE_CHARACTERS} characters` })
  ).annotations({ description: `What the message says, at most ${MAX_MESSAGE_CHARACTERS} characters; emoji, right-to-left and CJK text are fine.` })),
  imageKey: Schema.optional(Schema.String.annotations({ description: "Key of an uploaded picture sent in the message (shown above its text)." })),
  delaySeconds: Schema.optional(Schema.Number.pipe(
    Schema.between(0, MAX_DELAY_SECONDS, { message: () => `delaySeconds must be from 0 to ${MAX_DELAY_SECONDS}` })
  ).annotations({ description: "Pause before the message appears (fake-text videos); ignored by screenshots." }))
}).annotations({ identifier: "ChatMessage", description: "One message: text, a picture, or both." })
export type ChatMessage = typeof ChatMessage.Type

/** The fields every fake-text operation takes. */
export const ConversationFields = {
  participants: Schema.Array(Participant).pipe(
    Schema.minItems(MIN_PARTICIPANTS, { message: () => `participants must list ${MIN_PARTICIPANTS} to ${MAX_PARTICIPANTS} people` }),
    Schema.maxItems(MAX_PARTICIPANTS, { message: () => `participants must list ${MIN_PARTICIPANTS} to ${MAX_PARTICIPANTS} people` })
  ).annotations({
    description: `${MIN_PARTICIPANTS} to ${MAX_PARTICIPANTS} people; more than two is a group chat.`,
    examples: [[{ id: "sam", name: "Sam", me: true }, { id: "alex", name: "Alex" }]]
  }),
  messages: Schema.Array(ChatMessage).pipe(
    Schema.minItems(1, { message: () => `messages must list 1 to ${MAX_MESSAGES} messages` }),
    Schema.maxItems(MAX_MESSAGES, { message: () => `messages must list 1 to ${MAX_MESSAGES} messages` })
  ).annotations({
    description: `1 to ${MAX_MESSAGES} messages, oldest first.`,
    examples: [[{ from: "alex", text: "Are you still coming tonight?" }, { from: "sam", text: "On my way 🚲" }]]
  }),
  theme: Schema.optionalWith(ChatThemeId, { default: () => "imessage-light" as const })
}

export interface Conversation {
  readonly participants: ReadonlyArray<Participant>
  readonly messages: ReadonlyArray<ChatMessage>
}

export interface ConversationProblem {
  readonly field: string
  readonly message: string
}

/** The first rule across fields the conversation breaks, or null. */
export const conversationProblem = (c: Conversation): ConversationProblem | null => {
  const seen = new Set<string>()
  for (const [i, p] of c.participants.entries()) {
    if (seen.has(p.id)) return { field: `participants.${i}.id`, message: `two participants have the id ${p.id}` }
    seen.add(p.id)
  }
  if (c.participants.filter((p) => p.me === true).length > 1) {
    return { field: "participants", message: "at most one participant is `me` (the phone's owner)" }
  }
  for (const [i, m] of c.messages.entries()) {
    if (!seen.has(m.from)) {
      return { field: `messages.${i}.from`, message: `no participant has the id ${m.from}; use one of ${[...seen].join(", ")}` }
    }
    if ((m.text === undefined || m.text.trim() === "") && m.imageKey === undefined) {
      return { field: `messages.${i}.text`, message: "a message needs text, an imageKey, or both" }
    }
  }
  return null
}

/** The phone's owner: the participant marked `me`, else the first. */
export const ownerOf = (c: Conversation): Participant => c.participants.find((p) => p.me === true) ?? c.participants[0]!

/** Up to two letters: the first of the first and last words of the name ("Ana Lucia Ruiz" -> "AR"). */
export const initialsOf = (name: string): string => {
  const words = name.trim().split(/\s+/).filter((w) => w.length > 0)
  const first = (w: string | undefined) => (w === undefined ? "" : Array.from(w)[0] ?? "")
  return (first(words[0]) + (words.length > 1 ? first(words.at(-1)) : "")).toUpperCase()
}
