import { Effect, Option } from "effect"
import { Unauthenticated } from "../../../../domain/errors.ts"
import { WorkspaceStore } from "../../../../domain/ports/workspace-store.ts"
import { OAUTH_PREFIX, sha256Hex } from "../../../kernel/secrets.ts"
import { withSpan } from "../../../kernel/spans.ts"

const refuse = new Unauthenticated({
  message: "Send a valid API token: `Authorization: Bearer <API_TOKEN>`. The token is missing, unknown or revoked."
})

/** OAuth access tokens are bound to /mcp (their resource); /v1 takes only API tokens. */
const oauthTokenRefused = new Unauthenticated({
  message: "This is an OAuth access token, which works only on /mcp (the resource it was issued for). Use an API token on /v1."
})

/**
 * Bearer token -> its workspace. Tokens are looked up by their SHA-256, never stored in clear. Every request
 * passes here, so its spans (and the store's lookup) skip the stack capture, which cost more than a cached check.
 */
export const authenticate = (token: string | undefined) =>
  Effect.gen(function*() {
    if (token === undefined || token.length === 0) return yield* refuse
    if (token.startsWith(OAUTH_PREFIX.access)) return yield* oauthTokenRefused
    const store = yield* WorkspaceStore
    const found = yield* store.findTokenWithWorkspace(sha256Hex(token))
    if (Option.isNone(found) || found.value.token.revokedAt !== null) return yield* refuse
    return found.value.workspace
  }).pipe(withSpan("authenticate", { captureStackTrace: false }))
