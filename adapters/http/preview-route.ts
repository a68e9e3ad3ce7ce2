// A public GET route serving a sample made on first request and kept in memory (voice and art-style
// previews): no header needed (an <audio> or <img> tag sends none), 404 for an unknown id.
import { HttpApiBuilder, HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises"
import { join } from "node:path"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { withSpan } from "../../src/kernel/spans.ts"

export interface PreviewRoute<R> {
  /** Route path with an `:id` parameter. */
  readonly path: `/${string}/:id/${string}`
  readonly contentType: string
  /** Said in the 404 body. */
  readonly unknown: string
  /** Makes the sample of `id` in a scratch folder and returns its path; None for an unknown id. */
  readonly make: (id: string, dir: string) => Effect.Effect<Option.Option<string>, unknown, R>
}

export const previewRoute = <R>(route: PreviewRoute<R>) =>
  HttpApiBuilder.Router.use((router) =>
    Effect.gen(function*() {
      const context = yield* Effect.context<R | ServiceConfig>()
      const preview = yield* Effect.cachedFunction((id: string) =>
        Effect.gen(function*() {
          const { workDir } = yield* ServiceConfig
          return yield* Effect.acquireUseRelease(
            Effect.promise(() => mkdir(workDir, { recursive: true }).then(() => mkdtemp(join(workDir, "preview-")))),
            (dir) =>
              route.make(id, dir).pipe(
                Effect.flatMap(Option.match({
                  onNone: () => Effect.succeedNone,
                  onSome: (path) => Effect.asSome(Effect.promise(() => readFile(path)))
                }))
              ),
            (dir) => Effect.promise(() => rm(dir, { recursive: true, force: true }))
          )
        }).pipe(Effect.orDie, Effect.provide(context), withSpan("preview", { attributes: { path: route.path, id } })))
      const unknown = HttpServerResponse.unsafeJson({ error: { code: "not_found", message: route.unknown } }, { status: 404 })
      yield* router.get(
        route.path,
        Effect.flatMap(HttpRouter.params, ({ id }) => preview(id ?? "")).pipe(
          Effect.map(Option.match({
            onNone: () => unknown,
            onSome: (bytes) =>
              HttpServerResponse.uint8Array(bytes, { contentType: route.contentType, headers: { "cache-control": "public, max-age=86400" } })
          }))
        )
      )
    })
  )
