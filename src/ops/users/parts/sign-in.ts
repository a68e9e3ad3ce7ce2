// A person signs in with email and password to approve apps; what they get is a session token for a
// cookie. A refusal never says which of the two was wrong, in its words or in its timing.
import { Effect, Option, Schema } from "effect"
import { SESSION_TTL } from "../../../../domain/oauth.ts"
import { type User, UserStore } from "../../../../domain/ports/user-store.ts"
import { hashPassword, verifyPassword } from "../../../kernel/password.ts"
import { newOAuthSecret, randomToken, sha256Hex } from "../../../kernel/secrets.ts"
import { lifetimeFromNow } from "../../oauth/lifetime.ts"
import { withSpan } from "../../../kernel/spans.ts"

export class SignInRefused extends Schema.TaggedError<SignInRefused>()("SignInRefused", {
  message: Schema.String
}) {}

const refused = new SignInRefused({ message: "The email or the password is wrong." })

/**
 * A hash of a random password, checked against when there is no user (or no password), so the
 * answer takes as long as for a real user. Made once, on first use.
 */
const standInHash = Effect.runSync(Effect.cached(hashPassword(randomToken("", 18))))

export interface SignedIn {
  readonly sessionToken: string
  readonly user: User
  readonly expiresAt: string
}

export const signIn = (email: string, password: string): Effect.Effect<SignedIn, SignInRefused, UserStore> =>
  Effect.gen(function*() {
    const users = yield* UserStore
    const found = yield* users.findUserByEmail(email.trim())
    const stored = Option.isSome(found) ? found.value.passwordHash : null
    const matches = yield* verifyPassword(password, stored ?? (yield* standInHash))
    if (Option.isNone(found) || stored === null || !matches) return yield* refused
    const sessionToken = newOAuthSecret("session")
    const { at, expiresAt } = yield* lifetimeFromNow(SESSION_TTL)
    yield* users.insertSession({ hash: sha256Hex(sessionToken), userId: found.value.id, createdAt: at, expiresAt })
    return { sessionToken, user: found.value, expiresAt }
  }).pipe(withSpan("signIn"))
