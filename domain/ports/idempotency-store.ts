import { Context, type Effect, type Option } from "effect"

export interface StoredResponse {
  readonly workspaceId: string
  readonly key: string
  /** SHA-256 of the operation name and its decoded input: the same key with another body is a conflict. */
  readonly fingerprint: string
  readonly response: unknown
  readonly createdAt: string
}

export interface IdempotencyStoreShape {
  readonly get: (workspaceId: string, key: string) => Effect.Effect<Option.Option<StoredResponse>>
  readonly put: (entry: StoredResponse) => Effect.Effect<void>
}
export class IdempotencyStore extends Context.Tag("IdempotencyStore")<IdempotencyStore, IdempotencyStoreShape>() {}
