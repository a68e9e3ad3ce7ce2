import { Context, type Effect, Schema } from "effect"

/** A sealed value that does not open: sealed under another server key or context, or altered. */
export class UnreadableSecret extends Schema.TaggedError<UnreadableSecret>()("UnreadableSecret", {
  reason: Schema.String
}) {}

/** Encryption at rest with the server's key. */
export interface SecretBoxShape {
  /** Encrypts `plaintext` bound to `context`: it opens only with the same server key and the same context. */
  readonly seal: (plaintext: string, context: string) => Effect.Effect<string>
  readonly open: (sealed: string, context: string) => Effect.Effect<string, UnreadableSecret>
}
export class SecretBox extends Context.Tag("SecretBox")<SecretBox, SecretBoxShape>() {}
