// GET /caption-templates/:id/preview.webp: a few looping seconds of a built-in caption template in
// motion, drawn by the same ASS writer and fonts as the export; linked from GET /v1/caption-templates.
import { Effect, Option } from "effect"
import { BUILT_IN_TEMPLATES, layoutCaptions, layoutRulesOf, type TimedWord } from "../../domain/captions.ts"
import { MediaEngine } from "../../domain/ports/media-engine.ts"
import { previewRoute } from "./preview-route.ts"

/**
 * What every preview shows: words spoken at a brisk pace (two pages in most templates, so entrances,
 * highlights and page turns all show) over a soft gradient, as ffmpeg's lavfi source.
 */
export const CAPTION_PREVIEW = {
  words: "Every word lands when your captions move with you.".split(" ").map((text, i): TimedWord => ({
    text,
    start: 0.25 + i * 0.36,
    end: 0.25 + i * 0.36 + 0.32
  })),
  width: 270,
  height: 480,
  seconds: 3.8,
  background: "gradients=s=270x480:c0=0x2b3a55:c1=0x6b4f7a:x0=0:y0=0:x1=270:y1=480"
} as const

export const CaptionTemplatePreviewRoute = previewRoute<MediaEngine>({
  path: "/caption-templates/:id/preview.webp",
  contentType: "image/webp",
  unknown: "No such built-in caption template; GET /v1/caption-templates lists them.",
  make: (id, dir) =>
    Effect.gen(function*() {
      const template = BUILT_IN_TEMPLATES.find((t) => String(t.id) === id)
      if (template === undefined) return Option.none()
      const { style } = template
      const outputWebp = `${dir}/preview.webp`
      const { background, height, seconds, width, words } = CAPTION_PREVIEW
      yield* (yield* MediaEngine).captionPreview({
        captions: { pages: layoutCaptions(words, layoutRulesOf(style)), style },
        background,
        width,
        height,
        seconds,
        outputWebp
      })
      return Option.some(outputWebp)
    })
})
