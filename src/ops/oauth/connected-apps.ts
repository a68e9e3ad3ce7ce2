// The connected-apps page: the grants a user made, each revocable by that user alone.
import { Effect, Option } from "effect"
import { NotFound } from "../../../domain/errors.ts"
import { type GrantView, OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { withSpan } from "../../kernel/spans.ts"

/** The user's grants that still stand, newest first. */
export const connectedApps = (userId: string): Effect.Effect<ReadonlyArray<GrantView>, never, OAuthStore> =>
  Effect.flatMap(OAuthStore, (oauth) => oauth.grantsOfUser(userId)).pipe(withSpan("connectedApps"))

/** Revokes the grant, so every token under it stops; another user's grant is NotFound, like a missing one. */
export const disconnectApp = (userId: string, grantId: string): Effect.Effect<void, NotFound, OAuthStore> =>
  Effect.gen(function*() {
    const oauth = yield* OAuthStore
    const grant = yield* oauth.getGrant(grantId)
    if (Option.isNone(grant) || grant.value.userId !== userId) {
      return yield* new NotFound({ resource: "connected app", id: grantId })
    }
    yield* oauth.revokeGrant(grantId, yield* nowIso)
  }).pipe(withSpan("disconnectApp"))
