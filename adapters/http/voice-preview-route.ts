// GET /voices/:id/preview.mp3: a short sample of each voice, linked from GET /v1/voices. Public like
// media links (an <audio> tag sends no header); made on first request and kept in memory, a few KB each.
import { HttpApiBuilder, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import { SpeechEngines } from "../../domain/ports/speech-engine.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { allVoices } from "../../src/ops/speech/voices.ts"

const sampleText = (name: string) => `Hi, I'm ${name}. I can read your script aloud, word for word.`

const unknownVoice = HttpServerResponse.unsafeJson(
  { error: { code: "not_found", message: "No such voice; GET /v1/voices lists them." } },
  { status: 404 }
)

export const VoicePreviewRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<MediaEngine | SpeechEngines | ServiceConfig>()
    const preview = yield* Effect.cachedFunction((voiceId: string) =>
      Effect.gen(function*() {
        const found = (yield* allVoices).find((v) => v.voice.id === voiceId)
        if (found === undefined) return Option.none()
        const { workDir } = yield* ServiceConfig
        return yield* Effect.acquireUseRelease(
          Effect.promise(() => mkdir(workDir, { recursive: true }).then(() => mkdtemp(join(workDir, "voice-preview-")))),
          (dir) =>
            Effect.gen(function*() {
              yield* found.engine.speak({ text: sampleText(found.voice.name.replace(/\s*\(.*\)$/, "")), voiceId, outputWav: `${dir}/sample.wav` })
              yield* (yield* MediaEngine).encodeMp3(`${dir}/sample.wav`, `${dir}/sample.mp3`)
              return Option.some(yield* Effect.promise(() => readFile(`${dir}/sample.mp3`)))
            }),
          (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
        )
      }).pipe(Effect.orDie, Effect.provide(context), Effect.withSpan("voicePreview", { attributes: { voiceId } })))
    yield* router.get(
      "/voices/:id/preview.mp3",
      Effect.flatMap(HttpRouter.params, ({ id }) => preview(id ?? "")).pipe(
        Effect.map(Option.match({
          onNone: () => unknownVoice,
          onSome: (bytes) =>
            HttpServerResponse.uint8Array(bytes, { contentType: "audio/mpeg", headers: { "cache-control": "public, max-age=86400" } })
        }))
      )
    )
  })
)
