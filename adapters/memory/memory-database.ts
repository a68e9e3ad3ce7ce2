// The in-memory database behind every memory store, and its Transactor.
import { Context, Effect, Exit, FiberRef, Layer, Ref } from "effect"
import type { CaptionEdits } from "../../domain/caption-edits.ts"
import type { ClipsRecord } from "../../domain/clips.ts"
import type { CaptionRemovalRecord } from "../../domain/caption-removal.ts"
import type { TimedWord } from "../../domain/captions.ts"
import type { GeneratedProject } from "../../domain/generated-project.ts"
import type { StoredFile } from "../../domain/ports/file-store.ts"
import type { KeyedRequest } from "../../domain/ports/idempotency-store.ts"
import type { Job } from "../../domain/ports/job-queue.ts"
import type { CashEntry } from "../../domain/ports/cash-ledger.ts"
import type { LedgerEntry } from "../../domain/ports/ledger.ts"
import type { AuthorizationCode, Grant, OAuthClient, OAuthToken } from "../../domain/ports/oauth-store.ts"
import type { DeliveryAttempt, OutboxEvent } from "../../domain/ports/outbox.ts"
import type { StoredProviderKey } from "../../domain/ports/provider-key-store.ts"
import type { SavedTemplate } from "../../domain/ports/template-store.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import type { Upload } from "../../domain/ports/upload-store.ts"
import type { Membership, Session, User } from "../../domain/ports/user-store.ts"
import type { ApiToken, Workspace } from "../../domain/ports/workspace-store.ts"
import type { FaceAnalysis } from "../../domain/reframe.ts"
import type { VideoRecord } from "../../domain/video.ts"
import type { WebhookSecret } from "../../domain/webhook-secrets.ts"
import { withSpan } from "../../src/kernel/spans.ts"

/** Every table, immutable: a transaction's snapshot is just the value it started from. Maps keep insertion order. */
export interface Tables {
  readonly workspaces: ReadonlyMap<string, Workspace>
  readonly tokens: ReadonlyMap<string, ApiToken>
  /** Vocabularies by workspace id. */
  readonly vocabularies: ReadonlyMap<string, ReadonlyArray<string>>
  readonly videos: ReadonlyMap<string, VideoRecord>
  readonly words: ReadonlyMap<string, ReadonlyArray<TimedWord>>
  readonly projects: ReadonlyMap<string, GeneratedProject>
  readonly captionEdits: ReadonlyMap<string, CaptionEdits>
  readonly faceAnalyses: ReadonlyMap<string, FaceAnalysis>
  readonly templates: ReadonlyMap<number, SavedTemplate>
  readonly lastTemplateId: number
  readonly ledger: ReadonlyArray<LedgerEntry>
  readonly cashLedger: ReadonlyArray<CashEntry>
  readonly jobs: ReadonlyMap<string, Job>
  readonly events: ReadonlyMap<string, OutboxEvent>
  readonly deliveryAttempts: ReadonlyArray<DeliveryAttempt>
  /** Keyed by `responseKey(workspaceId, key)`. */
  readonly responses: ReadonlyMap<string, KeyedRequest>
  readonly files: ReadonlyMap<string, StoredFile>
  readonly uploads: ReadonlyMap<string, Upload>
  readonly users: ReadonlyMap<string, User>
  /** Keyed by `membershipKey(userId, workspaceId)`. */
  readonly memberships: ReadonlyMap<string, Membership>
  /** Keyed by hash, as are codes and OAuth tokens. */
  readonly sessions: ReadonlyMap<string, Session>
  readonly oauthClients: ReadonlyMap<string, OAuthClient>
  readonly grants: ReadonlyMap<string, Grant>
  readonly codes: ReadonlyMap<string, AuthorizationCode>
  readonly oauthTokens: ReadonlyMap<string, OAuthToken>
  /** Keyed by `providerKeyRow(workspaceId, provider)`; each holds the key sealed, never the key. */
  readonly providerKeys: ReadonlyMap<string, StoredProviderKey>
  readonly captionRemovals: ReadonlyMap<string, CaptionRemovalRecord>
  readonly clips: ReadonlyMap<string, ClipsRecord>
  /** Webhook signing secrets by id. */
  readonly webhookSecrets: ReadonlyMap<string, WebhookSecret>
}

const emptyTables: Tables = {
  workspaces: new Map(),
  tokens: new Map(),
  vocabularies: new Map(),
  videos: new Map(),
  words: new Map(),
  projects: new Map(),
  captionEdits: new Map(),
  faceAnalyses: new Map(),
  templates: new Map(),
  lastTemplateId: 0,
  ledger: [],
  cashLedger: [],
  jobs: new Map(),
  events: new Map(),
  deliveryAttempts: [],
  responses: new Map(),
  files: new Map(),
  uploads: new Map(),
  users: new Map(),
  memberships: new Map(),
  sessions: new Map(),
  oauthClients: new Map(),
  grants: new Map(),
  codes: new Map(),
  oauthTokens: new Map(),
  providerKeys: new Map(),
  captionRemovals: new Map(),
  clips: new Map(),
  webhookSecrets: new Map()
}

/** A copy of `map` with `key` set; an existing key keeps its position. */
export const withRow = <K, V>(map: ReadonlyMap<K, V>, key: K, value: V): ReadonlyMap<K, V> =>
  new Map(map).set(key, value)

/** A copy of `map` with the row at `key` changed by `f`; a missing row stays missing. */
export const updateRow = <K, V>(map: ReadonlyMap<K, V>, key: K, f: (row: V) => V): ReadonlyMap<K, V> => {
  const row = map.get(key)
  return row === undefined ? map : withRow(map, key, f(row))
}

/** Code-unit order, as PostgreSQL's "C" collation sorts. */
export const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

export interface MemoryDatabaseShape {
  /** Reads the tables; waits while another fiber's transaction runs, so uncommitted writes are never seen. */
  readonly read: <A>(f: (tables: Tables) => A) => Effect.Effect<A>
  /** Replaces the tables with `f`'s second value and returns its first, as one step. */
  readonly modify: <A>(f: (tables: Tables) => readonly [A, Tables]) => Effect.Effect<A>
  readonly write: (f: (tables: Tables) => Tables) => Effect.Effect<void>
  /** Runs `self` holding the database alone; if it fails or is interrupted, its writes are undone. */
  readonly atomically: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}
export class MemoryDatabase extends Context.Tag("MemoryDatabase")<MemoryDatabase, MemoryDatabaseShape>() {}

/** A fresh, empty database per build. */
export const MemoryDatabaseLive = Layer.scoped(
  MemoryDatabase,
  Effect.gen(function*() {
    const state = yield* Ref.make(emptyTables)
    const mutex = yield* Effect.makeSemaphore(1)
    // Set while a fiber holds the mutex, so its own nested calls do not wait for themselves. Fibers forked
    // inside a transaction inherit it and act as part of that transaction, as they would share its connection.
    const holding = yield* FiberRef.make(false)

    const exclusive = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      Effect.flatMap(
        FiberRef.get(holding),
        (held) => held ? self : mutex.withPermits(1)(Effect.locally(self, holding, true))
      )

    const modify = <A>(f: (tables: Tables) => readonly [A, Tables]): Effect.Effect<A> =>
      exclusive(Ref.modify(state, f))

    return MemoryDatabase.of({
      read: (f) => exclusive(Effect.map(Ref.get(state), f)),
      modify,
      write: (f) => modify((tables) => [undefined, f(tables)]),
      // Nested calls restore only their own writes, like a savepoint.
      atomically: (self) =>
        exclusive(
          Effect.flatMap(
            Ref.get(state),
            (snapshot) => Effect.onExit(self, (exit) => Exit.isSuccess(exit) ? Effect.void : Ref.set(state, snapshot))
          )
        )
    })
  })
)

export const MemoryTransactorLive = Layer.effect(
  Transactor,
  Effect.map(MemoryDatabase, (db) =>
    Transactor.of({
      atomically: (self) => db.atomically(self).pipe(withSpan("MemoryTransactor.atomically"))
    }))
)
