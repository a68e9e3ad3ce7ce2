import { Context, type Effect, type Option } from "effect"

/** One Idempotency-Key of a workspace: held by the request that reserved it, then that request's answer. */
export interface KeyedRequest {
  readonly workspaceId: string
  readonly key: string
  /** SHA-256 of the operation name and its decoded input: the same key with another body is a conflict. */
  readonly fingerprint: string
  /** The reserving request's id: only it may answer or release the key. */
  readonly holder: string
  readonly reservedAt: string
  /** The holder's answer, encoded; none while the holder still runs. */
  readonly response: Option.Option<unknown>
}

export interface KeyClaim extends Omit<KeyedRequest, "response"> {
  /** A reservation made before this and never answered is taken over: its holder died without a word. */
  readonly staleBefore: string
}

export interface IdempotencyStoreShape {
  /**
   * Reserves the key for `claim.holder` unless another request holds it (and is not stale) or answered it,
   * as one step: of many concurrent claims exactly one wins. Returns the key as it stands afterwards; the
   * caller holds it when the holder is its own.
   */
  readonly reserve: (claim: KeyClaim) => Effect.Effect<KeyedRequest>
  readonly get: (workspaceId: string, key: string) => Effect.Effect<Option.Option<KeyedRequest>>
  /** Stores the holder's answer; a request that no longer holds the key changes nothing. */
  readonly answer: (workspaceId: string, key: string, holder: string, response: unknown) => Effect.Effect<void>
  /** Frees a key its holder did not answer, so the request may be sent again; an answered key stays. */
  readonly release: (workspaceId: string, key: string, holder: string) => Effect.Effect<void>
}
export class IdempotencyStore extends Context.Tag("IdempotencyStore")<IdempotencyStore, IdempotencyStoreShape>() {}
