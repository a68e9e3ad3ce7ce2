// POST /oauth/revoke (RFC 7009). Either token ends its whole grant, so access and refresh token stop
// together. An unknown token, or another client's, is answered as a success: the answer tells a
// caller nothing about tokens it does not hold.
import { Effect, Option } from "effect"
import { OAuthFailure } from "../../../domain/oauth.ts"
import { OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { sha256Hex } from "../../kernel/secrets.ts"
import { withSpan } from "../../kernel/spans.ts"

export const revokeOAuthToken = (
  form: Readonly<Record<string, string | undefined>>
): Effect.Effect<void, OAuthFailure, OAuthStore> =>
  Effect.gen(function*() {
    const token = form.token
    if (token === undefined || token === "") {
      return yield* new OAuthFailure({ error: "invalid_request", description: "token is missing." })
    }
    const oauth = yield* OAuthStore
    const found = yield* oauth.findToken(sha256Hex(token))
    if (Option.isNone(found)) return
    const grant = yield* oauth.getGrant(found.value.grantId)
    if (Option.isNone(grant)) return
    const clientId = form.client_id
    if (clientId !== undefined && clientId !== "" && clientId !== grant.value.clientId) return
    yield* oauth.revokeGrant(grant.value.id, yield* nowIso)
  }).pipe(withSpan("revokeOAuthToken"))
