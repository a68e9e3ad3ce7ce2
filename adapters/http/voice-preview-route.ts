// GET /voices/:id/preview.mp3: a short sample of each voice, linked from GET /v1/voices.
import { Effect, Option } from "effect"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import type { SpeechEngines } from "../../domain/ports/speech-engine.ts"
import { allVoices } from "../../src/ops/speech/parts/voices.ts"
import { previewRoute } from "./preview-route.ts"

const sampleText = (name: string) => `Hi, I'm ${name}. I can read your script aloud, word for word.`

export const VoicePreviewRoute = previewRoute<MediaEngine | SpeechEngines>({
  path: "/voices/:id/preview.mp3",
  contentType: "audio/mpeg",
  unknown: "No such voice; GET /v1/voices lists them.",
  make: (id, dir) =>
    Effect.gen(function*() {
      const found = (yield* allVoices).find((v) => v.voice.id === id)
      if (found === undefined) return Option.none()
      yield* found.engine.speak({ text: sampleText(found.voice.name.replace(/\s*\(.*\)$/, "")), voiceId: id, outputWav: `${dir}/sample.wav` })
      yield* (yield* MediaEngine).encodeMp3(`${dir}/sample.wav`, `${dir}/sample.mp3`)
      return Option.some(`${dir}/sample.mp3`)
    })
})
