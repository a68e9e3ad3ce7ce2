// GET /art-styles/:id/preview.png: a sample picture of each art style, linked from GET /v1/art-styles.
import { Effect, Option } from "effect"
import { ART_STYLES } from "../../domain/art-styles.ts"
import { Illustrator } from "../../domain/ports/illustrator.ts"
import { previewRoute } from "./preview-route.ts"

const SAMPLE = { prompt: "a quiet beach at sunset, palm trees and the sea", seed: 7, width: 540, height: 960 }

export const ArtStylePreviewRoute = previewRoute<Illustrator>({
  path: "/art-styles/:id/preview.png",
  contentType: "image/png",
  unknown: "No such art style; GET /v1/art-styles lists them.",
  make: (id, dir) =>
    Effect.gen(function*() {
      const style = ART_STYLES.find((s) => s.id === id)
      if (style === undefined) return Option.none()
      yield* (yield* Illustrator).illustrate({ ...SAMPLE, style, outputPng: `${dir}/preview.png` })
      return Option.some(`${dir}/preview.png`)
    })
})
