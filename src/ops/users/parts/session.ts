// The browser session behind the sign-in cookie, and the CSRF token of its forms. The CSRF token is
// derived from the session token rather than stored: only the holder of the cookie can know it.
import { createHash } from "node:crypto"
import { Effect, Option } from "effect"
import { type User, UserStore } from "../../../../domain/ports/user-store.ts"
import { sameSecret, sha256Hex } from "../../../kernel/secrets.ts"
import { hasExpired } from "../../oauth/lifetime.ts"
import { withSpan } from "../../../kernel/spans.ts"

/** The signed-in user, or none when the token is missing, unknown or expired. */
export const currentUser = (sessionToken: string | undefined): Effect.Effect<Option.Option<User>, never, UserStore> =>
  Effect.gen(function*() {
    if (sessionToken === undefined || sessionToken.length === 0) return Option.none()
    const found = yield* (yield* UserStore).findSession(sha256Hex(sessionToken))
    if (Option.isNone(found) || (yield* hasExpired(found.value.session.expiresAt))) return Option.none()
    return Option.some(found.value.user)
  }).pipe(withSpan("currentUser"))

export const signOut = (sessionToken: string): Effect.Effect<void, never, UserStore> =>
  Effect.flatMap(UserStore, (users) => users.deleteSession(sha256Hex(sessionToken))).pipe(withSpan("signOut"))

export const csrfTokenFor = (sessionToken: string): string =>
  createHash("sha256").update(`csrf:${sessionToken}`).digest("base64url")

export const csrfMatches = (sessionToken: string, submitted: string | undefined): boolean =>
  submitted !== undefined && sameSecret(csrfTokenFor(sessionToken), submitted)
