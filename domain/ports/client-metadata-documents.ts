import { Context, type Effect, Schema } from "effect"

/** The document could not be had; `reason` says why in words a person can pass on ("it answered HTTP 404"). */
export class ClientMetadataUnavailable extends Schema.TaggedError<ClientMetadataUnavailable>()("ClientMetadataUnavailable", {
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): the JSON a client
 * publishes at the URL it uses as its client_id, fetched through the outbound guard and cached.
 */
export interface ClientMetadataDocumentsShape {
  /** The JSON value at the client_id URL, unchecked beyond being JSON. */
  readonly fetch: (clientId: string) => Effect.Effect<unknown, ClientMetadataUnavailable>
  /** Drops the cached copy, so that a document found wrong is fetched again at the next try. */
  readonly forget: (clientId: string) => Effect.Effect<void>
}
export class ClientMetadataDocuments extends Context.Tag("ClientMetadataDocuments")<
  ClientMetadataDocuments,
  ClientMetadataDocumentsShape
>() {}
