// GET /art-styles/:id/preview.png: a sample picture of each art style, linked from GET /v1/art-styles.
// Public like media links (an <img> tag sends no header); drawn on first request and kept in memory.
import { HttpApiBuilder, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { ART_STYLES } from "../../domain/art-styles.ts"
import { Illustrator } from "../../domain/ports/illustrator.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"

const SAMPLE = { prompt: "a quiet beach at sunset, palm trees and the sea", seed: 7, width: 540, height: 960 }

const unknownStyle = HttpServerResponse.unsafeJson(
  { error: { code: "not_found", message: "No such art style; GET /v1/art-styles lists them." } },
  { status: 404 }
)

export const ArtStylePreviewRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<Illustrator | ServiceConfig>()
    const preview = yield* Effect.cachedFunction((id: string) =>
      Effect.gen(function*() {
        const style = ART_STYLES.find((s) => s.id === id)
        if (style === undefined) return Option.none()
        const { workDir } = yield* ServiceConfig
        return yield* Effect.acquireUseRelease(
          Effect.promise(() => mkdir(workDir, { recursive: true }).then(() => mkdtemp(join(workDir, "style-preview-")))),
          (dir) =>
            Effect.gen(function*() {
              yield* (yield* Illustrator).illustrate({ ...SAMPLE, style, outputPng: `${dir}/preview.png` })
              return Option.some(yield* Effect.promise(() => readFile(`${dir}/preview.png`)))
            }),
          (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
        )
      }).pipe(Effect.orDie, Effect.provide(context), Effect.withSpan("artStylePreview", { attributes: { id } })))
    yield* router.get(
      "/art-styles/:id/preview.png",
      Effect.flatMap(HttpRouter.params, ({ id }) => preview(id ?? "")).pipe(
        Effect.map(Option.match({
          onNone: () => unknownStyle,
          onSome: (bytes) =>
            HttpServerResponse.uint8Array(bytes, { contentType: "image/png", headers: { "cache-control": "public, max-age=86400" } })
        }))
      )
    )
  })
)
