// Bearer authentication for /v1 (a workspace token) and /admin (the operator's admin token).
import { HttpApiMiddleware, HttpApiSecurity, HttpApp, HttpServerResponse } from "@effect/platform"
import { Config, Context, Effect, Layer, Option, Redacted } from "effect"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { sameSecret } from "../../src/kernel/secrets.ts"
import { authenticate } from "../../src/ops/workspaces/parts/authenticate.ts"
import { ApiError, ApiErrors, toApiError } from "./api-error.ts"

const REALM = `Bearer realm="reelwright"`

/**
 * The RFC 6750 challenge on a refusal, so a client learns which scheme to answer with: `invalid_token`
 * only when a token was sent (a request with none gets no error code). The API's error encoder writes
 * the 401, so the header goes on as it is written.
 */
const challenge = (token: Redacted.Redacted) => {
  const header = Redacted.value(token).length === 0 ? REALM : `${REALM}, error="invalid_token"`
  return HttpApp.appendPreResponseHandler((_, response) => Effect.succeed(HttpServerResponse.setHeader(response, "www-authenticate", header)))
}

export class Authentication extends HttpApiMiddleware.Tag<Authentication>()("http/Authentication", {
  provides: CurrentWorkspace,
  failure: ApiErrors[401],
  security: { bearer: HttpApiSecurity.bearer }
}) {}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(WorkspaceStore, (store) =>
    Authentication.of({
      bearer: (token) =>
        authenticate(Redacted.value(token)).pipe(
          Effect.provideService(WorkspaceStore, store),
          Effect.mapError(toApiError),
          Effect.tapError(() => challenge(token)),
          // For the rest of the request: its handler's log lines and its access line.
          Effect.tap((workspace) => Effect.annotateLogsScoped({ workspaceId: workspace.id }))
        )
    }))
)

/** The operator's token for /admin; with none configured, /admin answers 401 to everyone. */
export class AdminToken extends Context.Tag("http/AdminToken")<AdminToken, Option.Option<Redacted.Redacted>>() {
  static readonly fromEnv = Layer.effect(AdminToken, Config.option(Config.redacted("ADMIN_TOKEN")))
}

export class AdminAuthentication extends HttpApiMiddleware.Tag<AdminAuthentication>()("http/AdminAuthentication", {
  failure: ApiErrors[401],
  security: { bearer: HttpApiSecurity.bearer }
}) {}

export const AdminAuthenticationLive = Layer.effect(
  AdminAuthentication,
  Effect.map(AdminToken, (expected) =>
    AdminAuthentication.of({
      bearer: (token) =>
        Option.isSome(expected) && sameSecret(Redacted.value(token), Redacted.value(expected.value))
          ? Effect.void
          : Effect.zipRight(
            challenge(token),
            Effect.fail(new ApiError({ status: 401, code: "unauthenticated", message: "Admin operations need the operator's ADMIN_TOKEN as a bearer token." }))
          )
    }))
)
