// The HTTP server: the derived API with its docs, the media links, the editor page, and the
// request guards (size limits before reading a body, errors in one shape).
import { type HttpApi, HttpApiBuilder, HttpApiSwagger, HttpMiddleware, HttpServer, HttpServerRequest, HttpServerResponse, Multipart, type HttpApp } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Duration, Effect, Layer, Option } from "effect"
import { createServer } from "node:http"
import { Transactor } from "../../domain/ports/transactor.ts"
import { MAX_SOURCE_BYTES } from "../../domain/rules.ts"
import { payloadTooLarge } from "./api-error.ts"
import { ReelwrightApi } from "./api.ts"
import { AdminAuthenticationLive, type AdminToken, AuthenticationLive } from "./authentication.ts"
import type { CatalogueServices } from "../../src/catalogue.ts"
import { EditorRoutes } from "../editor/editor-routes.ts"
import { EditorAssetsRoute } from "../editor/editor-assets.ts"
import { AdminGroupLive, VideosGroupLive } from "./handlers.ts"
import { MediaRoute } from "./media-route.ts"
import { McpRoute } from "../mcp/mcp-route.ts"
import { OAuthRoutes } from "../oauth/oauth-routes.ts"
import { limitTokenRate } from "./rate-limit-guard.ts"
import { RequestErrorsLive } from "./request-errors.ts"
import { ArtStylePreviewRoute } from "./art-style-preview-route.ts"
import { VoicePreviewRoute } from "./voice-preview-route.ts"

/** Room for the multipart envelope and text fields around a file at the limit. */
const FORM_OVERHEAD_BYTES = 1024 * 1024
/**
 * The multipart parser counts a part's header lines toward its size, so the streaming cap gets a
 * little room; the exact 500 MB rule is applied to the stored file when it is probed.
 */
const PART_HEADER_ALLOWANCE_BYTES = 64 * 1024
const JSON_LIMIT_BYTES = 1024 * 1024

/**
 * Refuses a body whose declared length is over the limit before reading any of it, and caps a form's
 * file while it streams (the cap is set only for forms: setting it costs every request).
 */
const limitBodySize = (app: HttpApp.Default): HttpApp.Default =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const declared = Number(request.headers["content-length"] ?? "0")
    const isForm = (request.headers["content-type"] ?? "").toLowerCase().includes("multipart/form-data")
    const limit = isForm ? MAX_SOURCE_BYTES + FORM_OVERHEAD_BYTES : JSON_LIMIT_BYTES
    if (declared > limit) {
      const error = isForm ? payloadTooLarge(MAX_SOURCE_BYTES) : payloadTooLarge(JSON_LIMIT_BYTES)
      return HttpServerResponse.unsafeJson(
        { error: { code: error.code, message: error.message, details: error.details } },
        { status: 413, headers: { connection: "close" } }
      )
    }
    return yield* isForm
      ? Multipart.withLimits(app, { maxFileSize: Option.some(MAX_SOURCE_BYTES + PART_HEADER_ALLOWANCE_BYTES) })
      : app
  })

/**
 * Successful reads are left out of the request log: they are what clients poll, and at one line each they
 * would bury the writes and failures worth reading, at a large share of a read's cost.
 */
const quietReads = (app: HttpApp.Default): HttpApp.Default =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    request.method === "GET" || request.method === "HEAD"
      ? Effect.tap(app, (response) => response.status < 400 ? HttpMiddleware.withLoggerDisabled(Effect.void) : Effect.void)
      : app)

const serverMiddleware = (app: HttpApp.Default) =>
  HttpMiddleware.logger(limitTokenRate(quietReads(limitBodySize(app))))

const READY_TIMEOUT = Duration.seconds(3)

/**
 * /health: the process answers (liveness). /ready: it can also reach its store, proven by an empty
 * transaction (a round trip to the database); 503 while it cannot.
 */
const HealthRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const transactor = yield* Transactor
    yield* router.get("/health", HttpServerResponse.unsafeJson({ ok: true }))
    yield* router.get(
      "/ready",
      transactor.atomically(Effect.void).pipe(
        Effect.timeoutFail({ duration: READY_TIMEOUT, onTimeout: () => "timed out" }),
        Effect.sandbox,
        Effect.as(HttpServerResponse.unsafeJson({ ok: true })),
        Effect.catchAll((cause) =>
          Effect.as(
            Effect.logWarning("not ready: the store is unreachable", cause),
            HttpServerResponse.unsafeJson({ ok: false, store: "unreachable" }, { status: 503 })
          )
        )
      )
    )
  }))

// The API's groups are derived in a loop, which erases their requirements: state them here.
export const ApiLive = HttpApiBuilder.api(ReelwrightApi).pipe(
  Layer.provide([
    VideosGroupLive.pipe(Layer.provide(AuthenticationLive)),
    AdminGroupLive.pipe(Layer.provide(AdminAuthenticationLive))
  ])
) as Layer.Layer<HttpApi.Api, never, CatalogueServices | AdminToken>

/** Everything served, without the socket: tests and main add the listener. */
export const HttpAppLive = HttpApiBuilder.serve(serverMiddleware).pipe(
  Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide([MediaRoute, EditorRoutes, EditorAssetsRoute, VoicePreviewRoute, ArtStylePreviewRoute, HealthRoutes, OAuthRoutes, McpRoute, RequestErrorsLive]),
  Layer.provide(ApiLive),
  HttpServer.withLogAddress
)

export const HttpServerLive = (port: number) =>
  HttpAppLive.pipe(Layer.provide(NodeHttpServer.layer(createServer, { port })))
