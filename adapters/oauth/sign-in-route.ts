// POST /oauth/sign-in: checks the form's CSRF token and the throttle, signs the user in, and sends the
// browser back (303) to the page that asked for a sign-in. Failures show the form again.
import { HttpApiBuilder, HttpServerResponse, type HttpServerRequest } from "@effect/platform"
import { Duration, Effect } from "effect"
import type { UserStore } from "../../domain/ports/user-store.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { signIn } from "../../src/ops/users/parts/sign-in.ts"
import { clientAddress, ClientIpHeader } from "./client-address.ts"
import { CONNECTIONS_PATH } from "./connections-page.ts"
import { formBody } from "./form-fields.ts"
import { messagePage, pageResponse } from "./page-layout.ts"
import { makeRateLimiter, takeAll } from "./rate-limiter.ts"
import { safeReturnTo } from "./return-to.ts"
import { setSession, setSignInCsrf, signInCsrf, signInCsrfMatches } from "./session-cookie.ts"
import { signInPage, type SignInView } from "./sign-in-page.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** Guesses at one account from one address. */
export const SIGN_IN_PER_ACCOUNT = { limit: 10, window: Duration.minutes(15) }
/** Guesses from one address across accounts (a shared office network stays well under it). */
export const SIGN_IN_PER_ADDRESS = { limit: 50, window: Duration.minutes(15) }

/** The sign-in form, with this browser's CSRF cookie set (or kept). */
export const showSignIn = (
  view: Omit<SignInView, "csrf">,
  status: number,
  baseUrl: string
): Effect.Effect<HttpServerResponse.HttpServerResponse, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(signInCsrf, (csrf) => setSignInCsrf(pageResponse(status, signInPage({ ...view, csrf })), baseUrl, csrf))

export const SignInRoute = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<UserStore | ServiceConfig>()
    const ipHeader = yield* ClientIpHeader
    const perAccount = makeRateLimiter("sign-in-account", SIGN_IN_PER_ACCOUNT)
    const perAddress = makeRateLimiter("sign-in-address", SIGN_IN_PER_ADDRESS)

    const handler = Effect.gen(function*() {
      const { baseUrl } = yield* ServiceConfig
      const form = yield* Effect.either(formBody)
      if (form._tag === "Left") return messagePage(400, "Sign-in failed", form.left.message)
      const fields = form.right
      const returnTo = safeReturnTo(fields.return_to)
      const email = (fields.email ?? "").trim()
      if (!(yield* signInCsrfMatches(fields.csrf))) {
        return yield* showSignIn({ returnTo, email, error: "This form expired. Sign in again." }, 403, baseUrl)
      }
      const address = yield* clientAddress(ipHeader)
      const decision = yield* takeAll([[perAccount, `${address}|${email.toLowerCase()}`], [perAddress, address]])
      if (!decision.allowed) {
        const minutes = Math.ceil(decision.retryAfterSeconds / 60)
        const page = yield* showSignIn({
          returnTo,
          email,
          error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`
        }, 429, baseUrl)
        return HttpServerResponse.setHeader(page, "retry-after", String(decision.retryAfterSeconds))
      }
      return yield* signIn(email, fields.password ?? "").pipe(
        Effect.matchEffect({
          onFailure: (refused) => showSignIn({ returnTo, email, error: refused.message }, 401, baseUrl),
          onSuccess: (session) =>
            Effect.succeed(setSession(
              HttpServerResponse.redirect(returnTo, { status: 303, headers: { "cache-control": "no-store" } }),
              baseUrl,
              session.sessionToken,
              session.expiresAt
            ))
        })
      )
    }).pipe(withSpan("oauth.signIn"))

    yield* router.post("/oauth/sign-in", Effect.provide(handler, context))
    // The form's own address, opened directly: the form, leading to the connected apps.
    yield* router.get(
      "/oauth/sign-in",
      Effect.provide(Effect.flatMap(ServiceConfig, ({ baseUrl }) => showSignIn({ returnTo: CONNECTIONS_PATH }, 200, baseUrl)), context)
    )
  })
)
