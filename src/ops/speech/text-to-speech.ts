// Text to speech, answered synchronously: the script is spoken, encoded as MP3, stored as a file of the
// workspace and charged in one transaction with the file's record. Nothing runs in the background, so
// no webhook event is sent; `webhookUrl` is accepted (and validated) like on every create.
import { Effect, Schema } from "effect"
import { TimedWord } from "../../../domain/captions.ts"
import { InsufficientCredits, InvalidInput, Unavailable } from "../../../domain/errors.ts"
import { Ledger } from "../../../domain/ports/ledger.ts"
import { MediaEngine } from "../../../domain/ports/media-engine.ts"
import { estimatedSpeechSeconds, speechCredits, speechPriceText } from "../../../domain/pricing.ts"
import { Script, WebhookUrl } from "../../../domain/rules.ts"
import { MIN_SPOKEN_SECONDS, scriptWords } from "../../../domain/spoken-words.ts"
import { CurrentWorkspace } from "../../kernel/current-workspace.ts"
import { fileUrl } from "../../kernel/links.ts"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { withScratchDir } from "../../shared/media/scratch.ts"
import { recordPaidFile } from "../../shared/credits/record-paid-file.ts"
import { putFile } from "../../shared/media/store-file.ts"
import { chooseVoice } from "./parts/voices.ts"

export const SpeechObject = Schema.Struct({
  id: Schema.String.annotations({ description: "The stored file's id." }),
  url: Schema.String.annotations({ description: "URL of the MP3 (no token needed; unguessable)." }),
  contentType: Schema.Literal("audio/mpeg").annotations({ description: "Always MP3." }),
  duration: Schema.Number.annotations({ description: "Length of the audio in seconds." }),
  size: Schema.Int.annotations({ description: "Size of the MP3 in bytes." }),
  voiceId: Schema.String.annotations({ description: "The voice that spoke." }),
  credits: Schema.Int.annotations({ description: `Credits charged: ${speechPriceText("audio")}.` }),
  words: Schema.Array(TimedWord).annotations({ description: "Every word of the script with its time in the audio." })
}).annotations({ identifier: "Speech", description: "A script read aloud." })

const refuseShort = (required: number) =>
  Effect.gen(function*() {
    const workspace = yield* CurrentWorkspace
    const balance = yield* (yield* Ledger).balance(workspace.id)
    if (balance < required) return yield* new InsufficientCredits({ required, balance })
  })

export const textToSpeech = operation({
  name: "textToSpeech",
  summary: "Text to speech",
  description:
    "Reads a script aloud and answers with the stored MP3 at once (synchronous: no webhook event is sent, so `webhookUrl` is only validated), " +
    `with every word's time in the audio. Costs ${speechPriceText("audio")}. ` +
    "A script the voice can say nothing of (only emoji or punctuation, or another language) is refused with 400; a speech engine that fails answers 503. Neither is charged.",
  path: Schema.Struct({}),
  payload: Schema.Struct({
    script: Script,
    voiceId: Schema.optional(Schema.String.annotations({ description: "A voice from GET /v1/voices; default the first one." })),
    webhookUrl: Schema.optional(WebhookUrl)
  }),
  output: SpeechObject,
  errors: ["InvalidInput", "InsufficientCredits", "Unavailable"],
  http: { method: "POST", path: "/v1/text-to-speech" },
  access: "workspace",
  tool: "text_to_speech",
  openWorld: true,
  cli: "speak",
  idempotent: true,
  answersFile: true,
  handle: ({ script, voiceId }) =>
    Effect.gen(function*() {
      const workspace = yield* CurrentWorkspace
      const { voice, engine } = yield* chooseVoice(voiceId)
      // Speaking takes seconds: refuse a workspace that cannot pay before spending them.
      yield* refuseShort(speechCredits(estimatedSpeechSeconds(scriptWords(script).length)))
      const { baseUrl } = yield* ServiceConfig
      return yield* withScratchDir("speech", (dir) =>
        Effect.gen(function*() {
          const spoken = yield* engine.speak({ text: script, voiceId: voice.id, outputWav: `${dir}/speech.wav`, workspaceId: workspace.id }).pipe(
            // The script passed the rules: an engine that fails on it is broken or away, not refusing it.
            Effect.tapError((e) =>
              Effect.logWarning("speech engine failed", e.message).pipe(
                Effect.annotateLogs({ workspaceId: workspace.id, voiceId: voice.id, engine: engine.engine })
              )
            ),
            Effect.mapError((e) => new Unavailable({ message: `The voice ${voice.id} could not speak the script: ${e.message}` }))
          )
          if (spoken.durationSeconds < MIN_SPOKEN_SECONDS) {
            return yield* new InvalidInput({
              field: "script",
              message: `the voice ${voice.id} (${voice.language}) could say none of it: write it in the voice's language, or choose a voice for the script's language from GET /v1/voices`
            })
          }
          yield* Effect.orDie((yield* MediaEngine).encodeMp3(`${dir}/speech.wav`, `${dir}/speech.mp3`))
          const file = yield* putFile(workspace, { path: `${dir}/speech.mp3`, name: "speech.mp3", contentType: "audio/mpeg" })
          const credits = speechCredits(spoken.durationSeconds)
          yield* recordPaidFile(file, { credits, operation: "speech", reason: "speech" })
          return {
            id: file.id,
            url: fileUrl(baseUrl, file),
            contentType: "audio/mpeg" as const,
            duration: Math.round(spoken.durationSeconds * 1000) / 1000,
            size: file.bytes,
            voiceId: voice.id,
            credits,
            words: spoken.words
          }
        }))
    })
})
