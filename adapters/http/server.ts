// The HTTP server: the derived API with its docs, the media links, the editor page, and the
// request guards (bodies read under caps and deadlines, every refusal a JSON answer).
import {
  type HttpApi,
  HttpApiBuilder,
  HttpApiSwagger,
  HttpMiddleware,
  HttpServer,
  HttpServerResponse,
  type HttpApp,
  OpenApi
} from "@effect/platform"
import { Duration, Effect, Layer } from "effect"
import { Transactor } from "../../domain/ports/transactor.ts"
import { ReelwrightApi } from "./api.ts"
import { AdminAuthenticationLive, type AdminToken, AuthenticationLive } from "./authentication.ts"
import type { CatalogueServices } from "../../src/catalogue.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { EditorRoutes } from "../editor/editor-routes.ts"
import { EditorAssetsRoute } from "../editor/editor-assets.ts"
import { AdminGroupLive, VideosGroupLive } from "./handlers.ts"
import { MediaRoute } from "./media-route.ts"
import { McpLaneLive } from "../mcp/mcp-lane.ts"
import { McpRoute, McpServer } from "../mcp/mcp-route.ts"
import { OAuthRoutes } from "../oauth/oauth-routes.ts"
import { listenerLayer } from "./node-listener.ts"
import { limitTokenRate } from "./rate-limit-guard.ts"
import { guardRequests } from "./request-guard.ts"
import type { RequestLimitSettings } from "./request-limits.ts"
import { ReadLaneLive } from "./read-lane.ts"
import { RequestErrorsLive } from "./request-errors.ts"
import { TrustProxyRequestId, withRequestLog } from "./request-log.ts"
import { ArtStylePreviewRoute } from "./art-style-preview-route.ts"
import { CaptionTemplatePreviewRoute } from "./caption-template-preview-route.ts"
import { VoicePreviewRoute } from "./voice-preview-route.ts"

const serverMiddleware = (app: HttpApp.Default) => withRequestLog(guardRequests(limitTokenRate(app)))

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

/** The API as this deployment serves it: its documents (/openapi.json, /docs) name its base URL as the server. */
const servedApi = Layer.unwrapEffect(
  Effect.map(ServiceConfig, ({ baseUrl }) =>
    HttpApiBuilder.api(ReelwrightApi.annotate(OpenApi.Servers, [{ url: baseUrl, description: "This deployment." }])))
)

// The API's groups are derived in a loop, which erases their requirements: state them here.
export const ApiLive = servedApi.pipe(
  Layer.provide([
    VideosGroupLive.pipe(Layer.provide(AuthenticationLive)),
    AdminGroupLive.pipe(Layer.provide(AdminAuthenticationLive))
  ])
) as Layer.Layer<HttpApi.Api, never, CatalogueServices | AdminToken | ServiceConfig>

/** Everything served, without the socket: tests and main add the listener. */
export const HttpAppLive = HttpApiBuilder.serve(serverMiddleware).pipe(
  Layer.provide(HttpApiSwagger.layer({ path: "/docs" })),
  Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/openapi.json" })),
  Layer.provide([MediaRoute, EditorRoutes, EditorAssetsRoute, VoicePreviewRoute, ArtStylePreviewRoute, CaptionTemplatePreviewRoute, HealthRoutes, OAuthRoutes, McpRoute, RequestErrorsLive]),
  Layer.provide(ApiLive),
  Layer.provide([ReadLaneLive, McpLaneLive]),
  // One MCP server for the route and the lane.
  Layer.provide(McpServer.Live),
  // The request log names routes from the router the API and the routes above were added to.
  Layer.provide([TrustProxyRequestId.fromEnv, HttpApiBuilder.Router.Live]),
  // withRequestLog opens each request's server span, named by its route and without the URL or headers.
  HttpMiddleware.withTracerDisabledWhen(() => true),
  HttpServer.withLogAddress
)

export const HttpServerLive = (port: number, limits: RequestLimitSettings) =>
  HttpAppLive.pipe(Layer.provide(listenerLayer(limits, { port })))
