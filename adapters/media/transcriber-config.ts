// Chooses the transcriber from configuration (TRANSCRIBER; pocketsphinx by default).
import { Config, Effect, Layer } from "effect"
import { PocketsphinxTranscriberLive } from "./pocketsphinx-transcriber.ts"

export const TranscriberFromConfig = Layer.unwrapEffect(
  Effect.gen(function*() {
    const choice = yield* Config.literal("pocketsphinx")("TRANSCRIBER").pipe(Config.withDefault("pocketsphinx" as const))
    switch (choice) {
      case "pocketsphinx":
        return PocketsphinxTranscriberLive
    }
  })
)
