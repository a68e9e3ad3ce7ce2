// The endpoints OAuth clients call directly: registration (RFC 7591), the token endpoint (RFC 6749,
// PKCE, RFC 8707) and revocation (RFC 7009). Errors answer in the RFCs' shape; nothing is cached.
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Duration, Effect, Option } from "effect"
import type { ClientMetadataDocuments } from "../../domain/ports/client-metadata-documents.ts"
import type { OAuthStore } from "../../domain/ports/oauth-store.ts"
import type { Transactor } from "../../domain/ports/transactor.ts"
import type { ServiceConfig } from "../../src/kernel/service-config.ts"
import { parseJsonBody } from "../http/request-body.ts"
import { registerClient } from "../../src/ops/oauth/register-client.ts"
import { revokeOAuthToken } from "../../src/ops/oauth/revoke-oauth-token.ts"
import { exchangeToken } from "../../src/ops/oauth/token-exchange.ts"
import { clientAddress, ClientIpHeader } from "./client-address.ts"
import { formBody } from "./form-fields.ts"
import { oauthError, oauthFailure, oauthJson, oauthTooManyRequests, preflight } from "./oauth-json.ts"
import { makeRateLimiter } from "./rate-limiter.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** Registrations per client address: a real client registers once per install. */
export const REGISTER_LIMIT = { limit: 20, window: Duration.hours(1) }

/** A client that GETs an endpoint learns what to do instead, in the RFC shape. */
const onlyPost = HttpServerResponse.setHeader(oauthError("invalid_request", "Use POST.", 405), "allow", "POST, OPTIONS")

export const ClientEndpointsRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<OAuthStore | ClientMetadataDocuments | Transactor | ServiceConfig>()
    const ipHeader = yield* ClientIpHeader
    const registrations = makeRateLimiter("oauth-register", REGISTER_LIMIT)

    const register = Effect.gen(function*() {
      const decision = yield* registrations.take(yield* clientAddress(ipHeader))
      if (!decision.allowed) return oauthTooManyRequests(decision.retryAfterSeconds)
      const request = yield* HttpServerRequest.HttpServerRequest
      // The text is read under the body cap (a refusal answers for itself); only its parse is ours to judge.
      const metadata = yield* Effect.option(Effect.flatMap(request.text, parseJsonBody))
      if (Option.isNone(metadata)) return oauthError("invalid_client_metadata", "The body must be a JSON object of client metadata.")
      return yield* registerClient(metadata.value).pipe(
        Effect.match({ onFailure: oauthFailure, onSuccess: (client) => oauthJson(client, 201) })
      )
    }).pipe(withSpan("oauth.register"))

    const token = Effect.gen(function*() {
      const form = yield* Effect.either(formBody)
      if (form._tag === "Left") return oauthError("invalid_request", form.left.message)
      return yield* exchangeToken(form.right).pipe(Effect.match({ onFailure: oauthFailure, onSuccess: (issued) => oauthJson(issued) }))
    }).pipe(withSpan("oauth.token"))

    const revoke = Effect.gen(function*() {
      const form = yield* Effect.either(formBody)
      if (form._tag === "Left") return oauthError("invalid_request", form.left.message)
      return yield* revokeOAuthToken(form.right).pipe(
        Effect.match({ onFailure: oauthFailure, onSuccess: () => oauthJson({}) })
      )
    }).pipe(withSpan("oauth.revoke"))

    const routes = [["/oauth/register", register], ["/oauth/token", token], ["/oauth/revoke", revoke]] as const
    for (const [path, handler] of routes) {
      yield* router.post(path, Effect.provide(handler, context))
      yield* router.options(path, Effect.succeed(preflight))
      yield* router.get(path, Effect.succeed(onlyPost))
    }
  })
)
