// GET /oauth/authorize checks the request, then asks the browser to sign in or shows the consent page;
// POST /oauth/authorize takes the answer. The request's parameters travel in the consent form's hidden
// fields and are checked again on the way back, so nothing is trusted from the first pass.
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Effect, Option } from "effect"
import { isClientIdUrl, isLoopbackHost } from "../../domain/oauth.ts"
import type { ClientMetadataDocuments } from "../../domain/ports/client-metadata-documents.ts"
import type { OAuthStore } from "../../domain/ports/oauth-store.ts"
import type { Transactor } from "../../domain/ports/transactor.ts"
import { type User, UserStore } from "../../domain/ports/user-store.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { approveAuthorization } from "../../src/ops/oauth/approve-authorization.ts"
import {
  type AuthorizationRefused,
  type AuthorizationRequest,
  authorizationErrorUrl,
  checkAuthorizationRequest,
  denyAuthorization
} from "../../src/ops/oauth/authorization-request.ts"
import { csrfMatches, csrfTokenFor, currentUser } from "../../src/ops/users/parts/session.ts"
import { consentPage } from "./consent-page.ts"
import { type FormFields, formBody, queryFields } from "./form-fields.ts"
import { messagePage, pageResponse } from "./page-layout.ts"
import { AUTHORIZE_PATH } from "./return-to.ts"
import { sessionToken } from "./session-cookie.ts"
import { showSignIn } from "./sign-in-route.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** The parameters of an authorization request that the consent form carries back. */
const REQUEST_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "resource",
  "scope"
] as const

const requestParams = (fields: FormFields): Record<string, string> =>
  Object.fromEntries(REQUEST_PARAMS.flatMap((name) => (fields[name] === undefined ? [] : [[name, fields[name]]])))

const authorizeUrl = (params: Readonly<Record<string, string>>): string => `${AUTHORIZE_PATH}?${new URLSearchParams(params)}`

/** A redirect to the client: its checked redirect URI only. */
const toClient = (location: string) =>
  HttpServerResponse.redirect(location, { status: 302, headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" } })

const cannotContinue = (description: string) =>
  messagePage(400, "This app cannot connect", `${description} Go back to the app and start again.`)

/** Without a checked redirect URI the user sees the problem; with one, the client hears it. */
const refused = (refusal: AuthorizationRefused) =>
  refusal.redirect === null ? cannotContinue(refusal.description) : toClient(authorizationErrorUrl(refusal))

const consent = (options: {
  readonly request: AuthorizationRequest
  readonly params: Readonly<Record<string, string>>
  readonly user: User
  readonly session: string
  readonly status?: number
  readonly error?: string
}) =>
  Effect.gen(function*() {
    const memberships = yield* (yield* UserStore).workspacesOf(options.user.id)
    const redirect = new URL(options.request.redirectUri)
    const client = options.request.client
    const page = consentPage({
      clientName: client.name,
      clientHost: isClientIdUrl(client.id) ? new URL(client.id).host : null,
      redirectHost: redirect.host,
      redirectIsLoopback: isLoopbackHost(redirect.hostname),
      workspaces: memberships.map((m) => ({ id: m.workspace.id, name: m.workspace.name, role: m.role })),
      request: options.params,
      csrf: csrfTokenFor(options.session),
      email: options.user.email,
      returnTo: authorizeUrl(options.params),
      ...(options.error === undefined ? {} : { error: options.error })
    })
    return pageResponse(options.status ?? 200, page, { formTargets: [redirect.origin] })
  })

const showAuthorize = Effect.gen(function*() {
  const { baseUrl } = yield* ServiceConfig
  const query = yield* Effect.either(queryFields)
  if (query._tag === "Left") return cannotContinue(query.left.message)
  const checked = yield* Effect.either(checkAuthorizationRequest(query.right))
  if (checked._tag === "Left") return refused(checked.left)
  const request = checked.right
  const params = requestParams(query.right)
  const session = yield* sessionToken
  const user = yield* currentUser(session)
  if (session === undefined || Option.isNone(user)) {
    return yield* showSignIn({ returnTo: authorizeUrl(params), clientName: request.client.name }, 200, baseUrl)
  }
  return yield* consent({ request, params, user: user.value, session })
}).pipe(withSpan("oauth.showAuthorize"))

const answerAuthorize = Effect.gen(function*() {
  const { baseUrl } = yield* ServiceConfig
  const form = yield* Effect.either(formBody)
  if (form._tag === "Left") return cannotContinue(form.left.message)
  const fields = form.right
  const params = requestParams(fields)
  const session = yield* sessionToken
  const user = yield* currentUser(session)
  if (session === undefined || Option.isNone(user)) {
    return yield* showSignIn({ returnTo: authorizeUrl(params), notice: "Your sign-in ended. Sign in again to answer." }, 401, baseUrl)
  }
  if (!csrfMatches(session, fields.csrf)) {
    return messagePage(403, "This form expired", "The answer did not come from a current consent page. Go back to the app and start again.")
  }
  const checked = yield* Effect.either(checkAuthorizationRequest(params))
  if (checked._tag === "Left") return refused(checked.left)
  const request = checked.right
  if (fields.decision === "deny") return toClient(denyAuthorization(request))
  if (fields.decision !== "approve") return cannotContinue("The answer was neither allow nor deny.")
  const workspace = fields.workspace
  if (workspace === undefined || workspace === "") {
    return yield* consent({ request, params, user: user.value, session, status: 400, error: "Pick the workspace the app may use." })
  }
  return yield* approveAuthorization(request, user.value.id, workspace).pipe(
    Effect.matchEffect({
      onFailure: () =>
        consent({ request, params, user: user.value, session, status: 400, error: "Pick one of your own workspaces." }),
      onSuccess: ({ redirectTo }) => Effect.succeed(toClient(redirectTo))
    })
  )
}).pipe(withSpan("oauth.answerAuthorize"))

export const AuthorizeRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<OAuthStore | ClientMetadataDocuments | UserStore | Transactor | ServiceConfig>()
    yield* router.get(AUTHORIZE_PATH, Effect.provide(showAuthorize, context))
    yield* router.post(AUTHORIZE_PATH, Effect.provide(answerAuthorize, context))
  })
)
