// The browser's cookies: the sign-in session, and the sign-in form's double-submit CSRF token (there
// is no session yet to derive one from). HttpOnly, SameSite=Lax, Secure when the service is on https.
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { randomToken, sameSecret } from "../../src/kernel/secrets.ts"

export const SESSION_COOKIE = "rw_session"
export const SIGN_IN_CSRF_COOKIE = "rw_signin_csrf"

const options = (baseUrl: string) => ({
  httpOnly: true,
  sameSite: "lax" as const,
  path: "/",
  secure: baseUrl.startsWith("https:")
})

export const sessionToken: Effect.Effect<string | undefined, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => request.cookies[SESSION_COOKIE]
)

export const setSession = (response: HttpServerResponse.HttpServerResponse, baseUrl: string, token: string, expiresAt: string) =>
  HttpServerResponse.unsafeSetCookie(response, SESSION_COOKIE, token, { ...options(baseUrl), expires: new Date(expiresAt) })

export const clearSession = (response: HttpServerResponse.HttpServerResponse, baseUrl: string) =>
  HttpServerResponse.expireCookie(response, SESSION_COOKIE, options(baseUrl))

const WELL_FORMED = /^[A-Za-z0-9_-]{32,64}$/

/** The sign-in CSRF token this browser already holds (so several open tabs agree), or a new one. */
export const signInCsrf: Effect.Effect<string, never, HttpServerRequest.HttpServerRequest> = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => {
    const held = request.cookies[SIGN_IN_CSRF_COOKIE]
    return held !== undefined && WELL_FORMED.test(held) ? held : randomToken("", 32)
  }
)

export const setSignInCsrf = (response: HttpServerResponse.HttpServerResponse, baseUrl: string, token: string) =>
  HttpServerResponse.unsafeSetCookie(response, SIGN_IN_CSRF_COOKIE, token, options(baseUrl))

/** The form's token equals the cookie's: a cross-site form can send the cookie but cannot read it. */
export const signInCsrfMatches = (submitted: string | undefined): Effect.Effect<boolean, never, HttpServerRequest.HttpServerRequest> =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => {
    const held = request.cookies[SIGN_IN_CSRF_COOKIE]
    return held !== undefined && submitted !== undefined && WELL_FORMED.test(held) && sameSecret(held, submitted)
  })
