// The signed-in user's own pages: the connected apps (with a disconnect button per grant) and sign-out.
// Every change is a POST carrying the session's CSRF token.
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import type { OAuthStore } from "../../domain/ports/oauth-store.ts"
import type { UserStore } from "../../domain/ports/user-store.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { connectedApps, disconnectApp } from "../../src/ops/oauth/connected-apps.ts"
import { csrfMatches, csrfTokenFor, currentUser, signOut } from "../../src/ops/users/parts/session.ts"
import { CONNECTIONS_PATH, connectionsPage } from "./connections-page.ts"
import { formBody } from "./form-fields.ts"
import { messagePage, pageResponse } from "./page-layout.ts"
import { safeReturnTo } from "./return-to.ts"
import { clearSession, sessionToken } from "./session-cookie.ts"
import { showSignIn } from "./sign-in-route.ts"
import { withSpan } from "../../src/kernel/spans.ts"

const seeOther = (location: string) => HttpServerResponse.redirect(location, { status: 303, headers: { "cache-control": "no-store" } })

const expired = messagePage(403, "This form expired", "Reload the page and try again.")

const showConnections = (status: number, notice?: string) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* ServiceConfig
    const session = yield* sessionToken
    const user = yield* currentUser(session)
    if (session === undefined || Option.isNone(user)) {
      return yield* showSignIn({ returnTo: CONNECTIONS_PATH, ...(notice === undefined ? {} : { notice }) }, 200, baseUrl)
    }
    const grants = yield* connectedApps(user.value.id)
    return pageResponse(
      status,
      connectionsPage({ email: user.value.email, grants, csrf: csrfTokenFor(session), ...(notice === undefined ? {} : { notice }) })
    )
  })

const disconnect = Effect.gen(function*() {
  const form = yield* Effect.either(formBody)
  if (form._tag === "Left") return messagePage(400, "Nothing changed", form.left.message)
  const session = yield* sessionToken
  const user = yield* currentUser(session)
  if (session === undefined || Option.isNone(user)) return yield* showConnections(401, "Your sign-in ended. Sign in again.")
  if (!csrfMatches(session, form.right.csrf)) return expired
  return yield* disconnectApp(user.value.id, form.right.grant ?? "").pipe(
    Effect.matchEffect({
      onFailure: () => showConnections(404, "That connection no longer exists."),
      onSuccess: () => Effect.succeed(seeOther(CONNECTIONS_PATH))
    })
  )
}).pipe(withSpan("oauth.disconnectApp"))

const leave = Effect.gen(function*() {
  const { baseUrl } = yield* ServiceConfig
  const form = yield* Effect.either(formBody)
  if (form._tag === "Left") return messagePage(400, "Nothing changed", form.left.message)
  const session = yield* sessionToken
  // Without a live session there is nothing to end; with one, only a form of ours may end it.
  if (session !== undefined && Option.isSome(yield* currentUser(session))) {
    if (!csrfMatches(session, form.right.csrf)) return expired
    yield* signOut(session)
  }
  return clearSession(seeOther(safeReturnTo(form.right.return_to)), baseUrl)
}).pipe(withSpan("oauth.signOut"))

export const AccountRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<OAuthStore | UserStore | ServiceConfig>()
    yield* router.get(CONNECTIONS_PATH, Effect.provide(showConnections(200).pipe(withSpan("oauth.connections")), context))
    yield* router.post(`${CONNECTIONS_PATH}/revoke`, Effect.provide(disconnect, context))
    yield* router.post("/account/sign-out", Effect.provide(leave, context))
  })
)
