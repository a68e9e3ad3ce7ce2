// Who a call to /mcp acts for: an API token (clients that can only send static headers) or an OAuth
// access token issued for this very resource, not expired, under a grant that still stands.
import { Clock, Effect, Option, Schema } from "effect"
import { OAuthStore } from "../../../domain/ports/oauth-store.ts"
import type { Workspace, WorkspaceStore } from "../../../domain/ports/workspace-store.ts"
import { OAUTH_PREFIX, sha256Hex } from "../../kernel/secrets.ts"
import { authenticate } from "../workspaces/parts/authenticate.ts"
import { withSpan } from "../../kernel/spans.ts"

/** `missing`: no bearer at all (the client should start the OAuth flow); `invalid_token`: one that does not work. */
export class McpUnauthenticated extends Schema.TaggedError<McpUnauthenticated>()("McpUnauthenticated", {
  reason: Schema.Literal("missing", "invalid_token"),
  message: Schema.String
}) {}

const invalid = (message: string) => new McpUnauthenticated({ reason: "invalid_token", message })

const oauthWorkspace = (token: string, resource: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* OAuthStore).findAccessGrant(sha256Hex(token))
    if (Option.isNone(found)) return yield* invalid("The access token is unknown.")
    const { grant, token: stored, workspace } = found.value
    if (grant.revokedAt !== null) return yield* invalid("The access token's grant was revoked; authorize again.")
    if (Date.parse(stored.expiresAt) <= (yield* Clock.currentTimeMillis)) {
      return yield* invalid("The access token expired; refresh it.")
    }
    if (grant.resource !== resource) return yield* invalid(`The access token was issued for ${grant.resource}, not ${resource}.`)
    return workspace
  })

export const authenticateMcp = (
  token: string | undefined,
  resource: string
): Effect.Effect<Workspace, McpUnauthenticated, OAuthStore | WorkspaceStore> =>
  Effect.gen(function*() {
    if (token === undefined || token.length === 0) {
      return yield* new McpUnauthenticated({ reason: "missing", message: "Authorization needed: send a bearer token." })
    }
    if (token.startsWith(OAUTH_PREFIX.access)) return yield* oauthWorkspace(token, resource)
    return yield* authenticate(token).pipe(Effect.mapError((e) => invalid(e.message)))
  }).pipe(withSpan("authenticateMcp", { captureStackTrace: false }))
