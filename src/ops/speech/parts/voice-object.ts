import { Schema } from "effect"

export const VoiceObject = Schema.Struct({
  id: Schema.String.annotations({ description: "The value to pass as `voiceId`." }),
  name: Schema.String.annotations({ description: "A name to pick it by." }),
  language: Schema.String.annotations({ description: "BCP 47 language tag, e.g. `en-US`." }),
  gender: Schema.Literal("female", "male", "neutral").annotations({ description: "How the voice sounds." }),
  engine: Schema.String.annotations({
    description: "The speech engine behind it: `festival` and `espeak-ng` are built in; `openai` and `elevenlabs` appear when the operator set their keys."
  }),
  preview: Schema.String.annotations({ description: "URL of a short MP3 sample of the voice (no token needed)." })
}).annotations({ identifier: "Voice", description: "A voice that reads scripts aloud." })
