// Which client a client_id names, for the authorization and token endpoints alike: one registered here,
// looked up in the store, or one known by its Client ID Metadata Document, whose URL is the id. That
// document is fetched (or taken from the cache) and checked at each use, so a change or a withdrawal
// by its publisher takes effect here within the cache's lifetime.
import { Effect, Option, Schema } from "effect"
import { isClientIdUrl } from "../../../domain/oauth.ts"
import { ClientMetadataDocuments } from "../../../domain/ports/client-metadata-documents.ts"
import { type OAuthClient, OAuthStore } from "../../../domain/ports/oauth-store.ts"
import { nowIso } from "../../kernel/now.ts"
import { acceptClientMetadata } from "./client-metadata.ts"
import { withSpan } from "../../kernel/spans.ts"

/** A client_id URL whose document could not be fetched or does not hold; `description` is for a person. */
export class UnusableClient extends Schema.TaggedError<UnusableClient>()("UnusableClient", {
  description: Schema.String
}) {
  override get message() {
    return this.description
  }
}

const unusable = (clientId: string, reason: string) =>
  new UnusableClient({
    description: `This app identifies itself by the client metadata document at ${clientId}, which cannot be used: ` +
      `${reason}. The app's developer must fix it; until then the app cannot connect here.`
  })

/** What a document must hold beyond a registration's fields (draft-ietf-oauth-client-id-metadata-document §4.1). */
const documentProblem = (clientId: string, document: unknown): string | null => {
  if (typeof document !== "object" || document === null || Array.isArray(document)) return "the document is not a JSON object"
  const fields = document as Readonly<Record<string, unknown>>
  if (fields.client_id === undefined) return "it names no client_id; it must hold client_id equal to its own URL"
  if (fields.client_id !== clientId) {
    return `its client_id is ${JSON.stringify(fields.client_id)}, not the URL it is published at; the two must be identical`
  }
  if (fields.client_secret !== undefined || fields.client_secret_expires_at !== undefined) {
    return "it holds a client secret, and a client known by its metadata document is public (it proves itself with PKCE)"
  }
  return null
}

const documentClient = (clientId: string) =>
  Effect.gen(function*() {
    const documents = yield* ClientMetadataDocuments
    const document = yield* documents.fetch(clientId).pipe(Effect.mapError((e) => unusable(clientId, e.reason)))
    // A document found wrong is not kept, so its fix is seen at the next try rather than when the cache expires.
    const refuse = (reason: string) => Effect.zipRight(documents.forget(clientId), Effect.fail(unusable(clientId, reason)))
    const problem = documentProblem(clientId, document)
    if (problem !== null) return yield* refuse(problem)
    const accepted = yield* acceptClientMetadata(document).pipe(Effect.catchAll((e) => refuse(e.description)))
    const client: OAuthClient = {
      id: clientId,
      name: accepted.name,
      redirectUris: accepted.redirectUris,
      metadata: accepted.metadata,
      createdAt: yield* nowIso
    }
    return client
  })

/** None: no client registered here has this id. */
export const resolveClient = (
  clientId: string
): Effect.Effect<Option.Option<OAuthClient>, UnusableClient, OAuthStore | ClientMetadataDocuments> =>
  Effect.gen(function*() {
    if (isClientIdUrl(clientId)) return Option.some(yield* documentClient(clientId))
    return yield* (yield* OAuthStore).getClient(clientId)
  }).pipe(withSpan("resolveClient", { attributes: { metadataDocument: isClientIdUrl(clientId) } }))
