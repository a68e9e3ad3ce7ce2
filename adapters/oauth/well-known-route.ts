// The discovery documents: RFC 9728 resource metadata (at the root and path-inserted for /mcp, which
// clients try first) and RFC 8414 authorization server metadata. Answered directly, never redirected:
// the MCP SDK follows no redirect on discovery.
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { authorizationServerMetadata, protectedResourceMetadata } from "../../src/ops/oauth/server-metadata.ts"
import { metadataJson, preflight } from "./oauth-json.ts"

export const WellKnownRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const resource = metadataJson(protectedResourceMetadata(baseUrl))
    const server = metadataJson(authorizationServerMetadata(baseUrl))
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"] as const) {
      yield* router.get(path, Effect.succeed(resource))
      yield* router.options(path, Effect.succeed(preflight))
    }
    yield* router.get("/.well-known/oauth-authorization-server", Effect.succeed(server))
    yield* router.options("/.well-known/oauth-authorization-server", Effect.succeed(preflight))
  })
)
