// The user approved the app for one of their workspaces: record the grant (the "connected app") and
// hand the client a single-use code for it, by redirect. A client known by its metadata document is
// stored as this approval saw it, so its grants have a client to refer to and the connected-apps page
// a name to show.
import { Effect } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { CODE_TTL, isClientIdUrl } from "../../../domain/oauth.ts"
import { OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { Transactor } from "../../../domain/ports/transactor.ts"
import { UserStore } from "../../../domain/ports/user-store.ts"
import { newId, newOAuthSecret, sha256Hex } from "../../kernel/secrets.ts"
import { type AuthorizationRequest, redirectUrl } from "./authorization-request.ts"
import { lifetimeFromNow } from "./lifetime.ts"
import { withSpan } from "../../kernel/spans.ts"

/** A workspace the user is not a member of is NotFound, like one that does not exist. */
export const approveAuthorization = (
  request: AuthorizationRequest,
  userId: string,
  workspaceId: string
): Effect.Effect<{ readonly redirectTo: string }, NotFound, UserStore | OAuthStore | Transactor> =>
  Effect.gen(function*() {
    const memberships = yield* (yield* UserStore).workspacesOf(userId)
    if (!memberships.some((m) => m.workspace.id === workspaceId)) {
      return yield* new NotFound({ resource: "workspace", id: workspaceId })
    }
    const oauth = yield* OAuthStore
    const code = newOAuthSecret("code")
    const { at, expiresAt } = yield* lifetimeFromNow(CODE_TTL)
    const grantId = newId()
    yield* (yield* Transactor).atomically(Effect.gen(function*() {
      if (isClientIdUrl(request.client.id)) yield* oauth.saveClient(request.client)
      yield* oauth.insertGrant({
        id: grantId,
        clientId: request.client.id,
        userId,
        workspaceId,
        resource: request.resource,
        scope: request.scope,
        createdAt: at,
        revokedAt: null
      })
      yield* oauth.insertCode({
        hash: sha256Hex(code),
        grantId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        createdAt: at,
        expiresAt,
        usedAt: null
      })
    }))
    return { redirectTo: redirectUrl({ uri: request.redirectUri, state: request.state, issuer: request.issuer }, { code }) }
  }).pipe(withSpan("approveAuthorization"))
