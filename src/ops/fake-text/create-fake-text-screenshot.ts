// POST /v1/fake-text-screenshots, tool create_fake_text_screenshot: a conversation drawn as a chat
// app's screen in one png, answered at once. The png is stored as a file of the workspace and charged
// in one transaction with the file's record; nothing runs in the background, so no webhook event is
// sent (`webhookUrl` is accepted and validated like on every create).
import { Chunk, Clock, Effect, Option, Schema, Stream } from "effect"
import { chatTheme } from "../../../domain/chat-themes.ts"
import { type Conversation, ConversationFields, conversationProblem } from "../../../domain/conversation.ts"
import { InsufficientCredits, InvalidInput } from "../../../domain/errors.ts"
import { fileAvailability } from "../../../domain/file-retention.ts"
import { BlobStore } from "../../../domain/ports/blob-store.ts"
import { ChatPainter } from "../../../domain/ports/chat-painter.ts"
import { FileStore } from "../../../domain/ports/file-store.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { UploadStore } from "../../../domain/ports/upload-store.ts"
import { FAKE_TEXT_SCREENSHOT_CREDITS } from "../../../domain/pricing.ts"
import { WebhookUrl } from "../../../domain/rules.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { fileUrl } from "../../kernel/links.ts"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { withScratchDir } from "../../shared/media/scratch.ts"
import { recordPaidFile } from "../../shared/credits/record-paid-file.ts"
import { putFile } from "../../shared/media/store-file.ts"
import { writeFile } from "node:fs/promises"

const WIDTH = 1080
const PHONE_HEIGHT = 1920

export const ScreenshotObject = Schema.Struct({
  id: Schema.String.annotations({ description: "The stored file's id." }),
  url: Schema.String.annotations({ description: "URL of the png (no token needed; unguessable)." }),
  width: Schema.Int.annotations({ description: "Always 1080." }),
  height: Schema.Int.annotations({ description: "1920 for `phone`; what the messages need for `fit`." }),
  size: Schema.Int.annotations({ description: "Size of the png in bytes." }),
  credits: Schema.Int.annotations({ description: `Credits charged: always ${FAKE_TEXT_SCREENSHOT_CREDITS}.` })
}).annotations({ identifier: "FakeTextScreenshot", description: "A conversation drawn as a still png." })

/** Every picture the conversation names, as an image upload of this workspace still kept, with the field that names it. */
const picturesOf = (c: Conversation): ReadonlyArray<{ readonly key: string; readonly field: string }> => [
  ...c.participants.flatMap((p, i) => (p.avatarKey === undefined ? [] : [{ key: p.avatarKey, field: `participants.${i}.avatarKey` }])),
  ...c.messages.flatMap((m, i) => (m.imageKey === undefined ? [] : [{ key: m.imageKey, field: `messages.${i}.imageKey` }]))
]

const readPicture = (key: string, field: string) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const upload = yield* (yield* UploadStore).get(workspace.id, key)
    if (Option.isNone(upload)) {
      return yield* new InvalidInput({ field, message: `no file ${JSON.stringify(key)} in this workspace; upload it with POST /v1/files` })
    }
    if (upload.value.kind !== "image") {
      return yield* new InvalidInput({ field, message: `the file ${key} is a ${upload.value.kind}; this takes a picture (PNG, JPEG or WebP)` })
    }
    const file = yield* (yield* FileStore).get(key)
    const now = yield* Clock.currentTimeMillis
    if (Option.isNone(file) || fileAvailability(file.value, now) !== "available") {
      return yield* new InvalidInput({ field, message: `the file ${key} was deleted or has expired under the plan's retention; upload it again` })
    }
    const chunks = yield* Stream.runCollect((yield* BlobStore).read(file.value.blobKey))
    return [key, Buffer.concat(Chunk.toReadonlyArray(chunks))] as const
  })

const refuseShort = (required: number) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const balance = yield* (yield* Ledger).balance(workspace.id)
    if (balance < required) return yield* new InsufficientCredits({ required, balance })
  })

export const createFakeTextScreenshot = operation({
  name: "createFakeTextScreenshot",
  summary: "Create a fake-text screenshot",
  description:
    "Draws a chat conversation as a phone screenshot png in the look of a chat app (`imessage-light`, `imessage-dark`, " +
    "`whatsapp`, `instagram`) and answers with its URL at once. The participant marked `me` (default the first) sends the " +
    "messages on the right; the header shows the other participant (or a group's first names). `size` `phone` is " +
    `${WIDTH}x${PHONE_HEIGHT} showing the newest messages; \`fit\` is as tall as every message needs. ` +
    `Costs ${FAKE_TEXT_SCREENSHOT_CREDITS} credits. Synchronous: no webhook event is sent, so \`webhookUrl\` is only validated.`,
  path: Schema.Struct({}),
  payload: Schema.Struct({
    ...ConversationFields,
    size: Schema.optionalWith(Schema.Literal("phone", "fit").annotations({
      description: `\`phone\` (${WIDTH}x${PHONE_HEIGHT}, default) or \`fit\` (${WIDTH} wide, as tall as the messages need).`
    }), { default: () => "phone" as const }),
    webhookUrl: Schema.optional(WebhookUrl)
  }),
  output: ScreenshotObject,
  errors: ["InvalidInput", "InsufficientCredits"],
  http: { method: "POST", path: "/v1/fake-text-screenshots" },
  access: "workspace",
  tool: "create_fake_text_screenshot",
  cli: "fake-text-screenshot",
  idempotent: true,
  answersFile: true,
  handle: ({ participants, messages, theme, size }) =>
    Effect.gen(function*() {
      const conversation = { participants, messages }
      const problem = conversationProblem(conversation)
      if (problem !== null) return yield* new InvalidInput(problem)
      const workspace = yield* CurrentWorkspace
      const pictures = yield* Effect.forEach(picturesOf(conversation), ({ key, field }) => readPicture(key, field), { concurrency: 4 })
      yield* refuseShort(FAKE_TEXT_SCREENSHOT_CREDITS)
      const picture = yield* (yield* ChatPainter).paint({
        conversation,
        theme: chatTheme(theme),
        images: new Map(pictures),
        width: WIDTH,
        height: size === "phone" ? PHONE_HEIGHT : "fit",
        state: { visible: messages.length, scroll: null, typing: null }
      }).pipe(Effect.catchTag("WorkFailed", (e) => new InvalidInput({ field: "messages", message: e.message })))
      const { baseUrl } = yield* ServiceConfig
      return yield* withScratchDir("screenshot", (dir) =>
        Effect.gen(function*() {
          const path = `${dir}/chat.png`
          yield* Effect.promise(() => writeFile(path, picture.png))
          const file = yield* putFile(workspace, { path, name: "fake-text.png", contentType: "image/png" })
          yield* recordPaidFile(file, { credits: FAKE_TEXT_SCREENSHOT_CREDITS, operation: "screenshot", reason: "fake-text screenshot" })
          return {
            id: file.id,
            url: fileUrl(baseUrl, file),
            width: picture.width,
            height: picture.height,
            size: file.bytes,
            credits: FAKE_TEXT_SCREENSHOT_CREDITS
          }
        }))
    })
})
