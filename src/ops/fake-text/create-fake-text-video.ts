// POST /v1/fake-text-videos, tool create_fake_text_video: a conversation played as a phone's chat
// screen: the other side types, each message pops in with the app's sound and is read in its
// sender's voice, and the list scrolls as it fills. Over the theme's own background, or a backdrop
// (colour, upload, built-in game) with the chat floating over it or above it in split screen.
import { Effect, Schema } from "effect"
import { CHAT_THEMES } from "../../../domain/chat-themes.ts"
import { type Conversation, ConversationFields, conversationProblem, ownerOf } from "../../../domain/conversation.ts"
import { InvalidInput } from "../../../domain/errors.ts"
import { AspectRatio, type ChatVisuals } from "../../../domain/generated-project.ts"
import { speechPriceText } from "../../../domain/pricing.ts"
import { operation } from "../../kernel/operation.ts"
import { CreatedVideo } from "../caption-video/create-caption-video.ts"
import { requireUpload } from "../files/parts/require-upload.ts"
import { BackdropField, resolveBackdrop } from "../generated-video/parts/backdrop-field.ts"
import { GeneratedVideoFields, startGeneratedVideo } from "../generated-video/parts/start-generated-video.ts"
import { allVoices } from "../speech/parts/voices.ts"
import { getVideo } from "../videos/get-video.ts"

/**
 * Each participant's voice: the one they name (checked), else a different default voice for each,
 * in the default voice's language, so two people never sound alike when the server has voices enough.
 */
const assignVoices = (conversation: Conversation) =>
  Effect.gen(function*() {
    const voices = (yield* allVoices).map((v) => v.voice)
    if (voices.length === 0) return yield* new InvalidInput({ field: "participants", message: "no speech engine is configured on this server" })
    const language = voices[0]!.language.slice(0, 2)
    const pool = voices.filter((v) => v.language.startsWith(language))
    const assigned: Record<string, string> = {}
    let next = 0
    for (const [i, p] of conversation.participants.entries()) {
      if (p.voiceId !== undefined) {
        if (!voices.some((v) => v.id === p.voiceId)) {
          return yield* new InvalidInput({
            field: `participants.${i}.voiceId`,
            message: `unknown voice ${JSON.stringify(p.voiceId)}; GET /v1/voices lists the voices`
          })
        }
        assigned[p.id] = p.voiceId
      } else {
        assigned[p.id] = pool[next++ % pool.length]!.id
      }
    }
    return assigned
  })

const requirePictures = (conversation: Conversation) =>
  Effect.forEach([
    ...conversation.participants.flatMap((p, i) => (p.avatarKey === undefined ? [] : [[p.avatarKey, `participants.${i}.avatarKey`] as const])),
    ...conversation.messages.flatMap((m, i) => (m.imageKey === undefined ? [] : [[m.imageKey, `messages.${i}.imageKey`] as const]))
  ], ([key, field]) => requireUpload(key, field, ["image"]), { discard: true })

/** The conversation as a script: who says what, line by line (what the editor shows). */
const scriptOf = (conversation: Conversation): string =>
  conversation.messages.map((m) => {
    const name = conversation.participants.find((p) => p.id === m.from)!.name
    return `${name}: ${m.text?.trim() || "[picture]"}`
  }).join("\n")

export const createFakeTextVideo = operation({
  name: "createFakeTextVideo",
  summary: "Create a fake-text video",
  description:
    "Plays a chat conversation as a video of a phone's chat screen in the look of a chat app " +
    `(${CHAT_THEMES.map((t) => `\`${t.id}\``).join(", ")}): before each incoming message the sender's typing bubble shows, ` +
    "each message pops in with the app's animation and its send or receive sound, its sender's voice reads it, and the list " +
    "scrolls as it fills. The video lasts as long as that takes. `background` shows the chat floating over a colour, an " +
    "upload or built-in gameplay; with `splitScreen` the chat fills the top half and the background the bottom half. " +
    `Costs ${speechPriceText("speech")}; ` +
    "rendering is charged as usual. Returns at once with status `processing`.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    ...ConversationFields,
    background: Schema.optional(BackdropField),
    splitScreen: Schema.optionalWith(Schema.Boolean.annotations({
      description: "Chat in the top half, `background` in the bottom half (needs `background`); default false: the chat floats over it."
    }), { default: () => false }),
    captions: Schema.optionalWith(Schema.Boolean.annotations({
      description: "Burn captions of the spoken messages in the template's style; default false (the bubbles already show the words)."
    }), { default: () => false }),
    aspectRatio: Schema.optional(AspectRatio),
    ...GeneratedVideoFields
  }),
  output: CreatedVideo,
  errors: ["InvalidInput", "PlanForbids"],
  http: { method: "POST", path: "/v1/fake-text-videos" },
  access: "workspace",
  tool: "create_fake_text_video",
  openWorld: true,
  cli: "fake-text",
  idempotent: true,
  readBack: getVideo,
  handle: ({ participants, messages, theme, background, splitScreen, captions, aspectRatio, ...request }) =>
    Effect.gen(function*() {
      const conversation = { participants, messages }
      const problem = conversationProblem(conversation)
      if (problem !== null) return yield* new InvalidInput(problem)
      if (splitScreen && background === undefined) {
        return yield* new InvalidInput({ field: "splitScreen", message: "split screen needs a `background` to show in the bottom half" })
      }
      const voices = yield* assignVoices(conversation)
      yield* requirePictures(conversation)
      const visuals: ChatVisuals = {
        _tag: "Chat",
        conversation,
        theme,
        voices,
        split: splitScreen,
        schedule: null,
        backdrop: yield* resolveBackdrop(background, "background"),
        captions
      }
      return yield* startGeneratedVideo(
        { ...request, script: scriptOf(conversation), voiceId: voices[ownerOf(conversation).id] },
        { kind: "fake-text", aspectRatio: aspectRatio ?? "9:16", visuals }
      )
    })
})
