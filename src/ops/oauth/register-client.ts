// Dynamic client registration (RFC 7591). Every client is public: it gets an id and no secret, and
// proves itself with PKCE instead. Redirect URIs are checked here, once, so the authorization
// endpoint can match them exactly later.
import { Clock, Effect } from "effect"
import type { OAuthFailure } from "../../../domain/oauth.ts"
import { OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { OAUTH_PREFIX, randomToken } from "../../kernel/secrets.ts"
import { acceptClientMetadata } from "./client-metadata.ts"
import { withSpan } from "../../kernel/spans.ts"

/** Registers a client and answers the 201 body: its id, no secret, and the metadata as accepted. */
export const registerClient = (metadata: unknown): Effect.Effect<Record<string, unknown>, OAuthFailure, OAuthStore> =>
  Effect.gen(function*() {
    const accepted = yield* acceptClientMetadata(metadata)
    const ms = yield* Clock.currentTimeMillis
    const clientId = randomToken(OAUTH_PREFIX.client, 18)
    yield* (yield* OAuthStore).insertClient({
      id: clientId,
      name: accepted.name,
      redirectUris: accepted.redirectUris,
      metadata: accepted.metadata,
      createdAt: new Date(ms).toISOString()
    })
    return { client_id: clientId, client_id_issued_at: Math.floor(ms / 1000), ...accepted.metadata }
  }).pipe(withSpan("registerClient"))
