import { Effect, Schema } from "effect"
import { operation } from "../../kernel/operation.ts"
import { ServiceConfig } from "../../kernel/service-config.ts"
import { ListEnvelope } from "../../shared/list-envelope.ts"
import { VoiceObject } from "./parts/voice-object.ts"
import { allVoices, voicePreviewUrl } from "./parts/voices.ts"

export const listVoices = operation({
  name: "listVoices",
  summary: "List voices",
  description: "The voices a `voiceId` can be set to, from every speech engine this server runs. The first one is the default.",
  path: Schema.Struct({}),
  payload: Schema.Struct({}),
  output: ListEnvelope(VoiceObject, "VoiceList"),
  errors: [],
  http: { method: "GET", path: "/v1/voices" },
  access: "workspace",
  tool: "list_voices",
  cli: "voices",
  idempotent: false,
  handle: () =>
    Effect.gen(function*() {
      const { baseUrl } = yield* ServiceConfig
      const voices = yield* allVoices
      return {
        data: voices.map(({ engine, voice }) => ({ ...voice, engine: engine.engine, preview: voicePreviewUrl(baseUrl, voice.id) })),
        nextCursor: null
      }
    })
})
