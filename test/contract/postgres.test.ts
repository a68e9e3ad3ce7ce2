// Every store contract against the PostgreSQL adapters, each suite on a database of its own, plus what only
// a real database gets wrong: claims from separate pools, concurrent migrations, rollback across every
// store, notifications that a rollback must swallow, and a LISTEN connection that drops.
import { randomUUID } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, type Duration, Effect, Fiber, Layer, Option, type Redacted, Ref, Schedule } from "effect"
import { PgMigrationsLive } from "../../adapters/postgres/migrations.ts"
import { PgJobQueueLive } from "../../adapters/postgres/pg-job-queue.ts"
import { PgClientLive } from "../../adapters/postgres/pg-layer.ts"
import { PgOAuthStoreLive } from "../../adapters/postgres/pg-oauth-store.ts"
import { PgUserStoreLive } from "../../adapters/postgres/pg-user-store.ts"
import { PgWorkspaceStoreLive } from "../../adapters/postgres/pg-workspace-store.ts"
import { BUILT_IN_TEMPLATES } from "../../domain/captions.ts"
import { CaptionRemovalStore } from "../../domain/ports/caption-removal-store.ts"
import { FileStore } from "../../domain/ports/file-store.ts"
import { IdempotencyStore } from "../../domain/ports/idempotency-store.ts"
import { type Job, JobQueue, type JobQueueShape } from "../../domain/ports/job-queue.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { OAuthStore, type OAuthStoreShape, type SingleUse } from "../../domain/ports/oauth-store.ts"
import { Outbox } from "../../domain/ports/outbox.ts"
import { TemplateStore } from "../../domain/ports/template-store.ts"
import { Transactor } from "../../domain/ports/transactor.ts"
import { VideoStore } from "../../domain/ports/video-store.ts"
import { WebhookSecretStore } from "../../domain/ports/webhook-secret-store.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { PgTestStores, postgresSkipReason, testDatabase } from "../support/pg-test-db.ts"
import { captionRemovalStoreContract } from "./caption-removal-store.contract.ts"
import { clipsStoreContract } from "./clips-store.contract.ts"
import { cashLedgerContract } from "./cash-ledger.contract.ts"
import { fileStoreContract } from "./file-store.contract.ts"
import { uploadStoreContract } from "./upload-store.contract.ts"
import { userStoreContract } from "./user-store.contract.ts"
import { aCaptionRemoval, aCode, aGrant, anEntry, anOAuthToken, aVideo, aWorkspace } from "./fixtures.ts"
import { idempotencyStoreContract } from "./idempotency-store.contract.ts"
import { jobQueueContract } from "./job-queue.contract.ts"
import { ledgerContract } from "./ledger.contract.ts"
import { grantParents, oauthStoreContract, tagsOf } from "./oauth-store.contract.ts"
import { outboxContract } from "./outbox.contract.ts"
import { providerKeyStoreContract } from "./provider-key-store.contract.ts"
import { templateStoreContract } from "./template-store.contract.ts"
import { transactorContract } from "./transactor.contract.ts"
import { videoStoreContract } from "./video-store.contract.ts"
import { webhookSecretStoreContract } from "./webhook-secret-store.contract.ts"
import { workspaceStoreContract } from "./workspace-store.contract.ts"

const aJob = (lane: "media" | "webhooks", runAt = 0) => ({
  lane,
  kind: "caption.generate",
  payload: { videoId: randomUUID() },
  runAt,
  dedupeKey: null
})

/** A job queue with a pool of its own, as another worker process would have. */
const separateQueue = (url: Redacted.Redacted<string>, heartbeat?: Duration.DurationInput) =>
  Layer.build(
    PgJobQueueLive({ listenHeartbeat: heartbeat }).pipe(
      Layer.provideMerge(PgClientLive(url, 2))
    )
  ).pipe(Effect.orDie)

/** The stores an OAuth grant needs, with a pool of their own, as another server process would have. */
const separateOAuthStores = (url: Redacted.Redacted<string>) =>
  Layer.build(
    Layer.mergeAll(PgWorkspaceStoreLive, PgUserStoreLive, PgOAuthStoreLive).pipe(Layer.provide(PgClientLive(url, 4)))
  ).pipe(Effect.orDie)

/** Runs `body` with every store on a database of its own. */
const withStores = <A, E>(body: Effect.Effect<A, E, Layer.Layer.Success<ReturnType<typeof PgTestStores>>>) =>
  Effect.flatMap(Layer.build(PgTestStores()).pipe(Effect.orDie), (stores) => Effect.provide(body, stores))

/**
 * The first wait opens the LISTEN connection and returns once it is in place, when every lane wakes; a
 * test that then waits knows that only a notification can wake it.
 */
const startListening = (jobs: JobQueueShape) => jobs.waitForWork("media", "1 minute")

const skipReason = postgresSkipReason
if (skipReason !== undefined) {
  console.warn(`Skipping the PostgreSQL suites: ${skipReason}`)
  describe.skip("PostgreSQL", () => {
    it(skipReason, () => {})
  })
} else {
  workspaceStoreContract("postgres", PgTestStores())
  videoStoreContract("postgres", PgTestStores())
  templateStoreContract("postgres", PgTestStores())
  ledgerContract("postgres", PgTestStores())
  cashLedgerContract("postgres", PgTestStores())
  jobQueueContract("postgres", PgTestStores())
  outboxContract("postgres", PgTestStores())
  idempotencyStoreContract("postgres", PgTestStores())
  fileStoreContract("postgres", PgTestStores())
  uploadStoreContract("postgres", PgTestStores())
  userStoreContract("postgres", PgTestStores())
  oauthStoreContract("postgres", PgTestStores())
  transactorContract("postgres", PgTestStores())
  captionRemovalStoreContract("postgres", PgTestStores())
  clipsStoreContract("postgres", PgTestStores())
  webhookSecretStoreContract("postgres", PgTestStores())
  providerKeyStoreContract(
    "postgres",
    PgTestStores(),
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT * FROM provider_keys`)
  )

  // Real time: notifications travel through the server, and the tests wait for them. Each test has a
  // database of its own, so that its first wait is the one that opens the LISTEN connection.
  describe("PostgreSQL", () => {
    it.scopedLive("rolls back the writes of every store together", () =>
      withStores(Effect.gen(function*() {
        const workspaceId = randomUUID()
        const video = aVideo(workspaceId)
        const removal = aCaptionRemoval(workspaceId)
        const templates = yield* TemplateStore
        const templateId = yield* templates.nextId()
        const eventId = randomUUID()
        const fileId = randomUUID()
        const jobId = yield* Ref.make("")
        const failed = yield* (yield* Transactor).atomically(Effect.gen(function*() {
          const workspaces = yield* WorkspaceStore
          yield* workspaces.insert({
            id: workspaceId,
            name: "Acme",
            ownerEmail: "owner@example.com",
            plan: "pro",
            byok: false,
            lastTemplateId: null,
            createdAt: "2025-01-02T03:04:05.678Z"
          })
          yield* workspaces.insertToken({
            id: randomUUID(),
            workspaceId,
            hash: `hash-${workspaceId}`,
            label: "first",
            createdAt: "2025-01-02T03:04:05.678Z",
            revokedAt: null
          })
          yield* (yield* VideoStore).insert(video)
          yield* (yield* VideoStore).saveWords(video.id, [{ text: "Hi", start: 0, end: 0.5 }])
          yield* (yield* CaptionRemovalStore).insert(removal)
          yield* templates.insert({
            id: templateId,
            name: "Mine",
            builtIn: false,
            style: BUILT_IN_TEMPLATES[0]!.style,
            workspaceId,
            createdAt: "2025-01-02T03:04:05.678Z"
          })
          yield* (yield* Ledger).post(anEntry(workspaceId, 100))
          const job = yield* (yield* JobQueue).enqueue(aJob("media"))
          yield* Ref.set(jobId, Option.getOrThrow(job).id)
          yield* (yield* Outbox).add({
            id: eventId,
            workspaceId,
            name: "video.completed",
            subjectId: video.id,
            dedupeKey: `${video.id}:0`,
            payload: { video: { id: video.id } },
            url: "https://hooks.example.com/in",
            createdAt: "2025-01-02T03:04:05.678Z",
            state: "pending"
          })
          yield* (yield* Outbox).recordAttempts([{
            attempt: {
              eventId,
              series: 1,
              attempt: 1,
              startedAt: "2025-01-02T03:04:05.678Z",
              durationMs: 12,
              status: 500,
              error: null,
              target: "https://hooks.example.com/in"
            }
          }])
          yield* (yield* IdempotencyStore).reserve({
            workspaceId,
            key: "k",
            fingerprint: "f",
            holder: "h",
            reservedAt: "2025-01-02T03:04:05.678Z",
            staleBefore: "2025-01-02T02:54:05.678Z"
          })
          yield* (yield* FileStore).insert({
            id: fileId,
            workspaceId,
            blobKey: `files/${fileId}`,
            token: `token-${fileId}`,
            name: "video.mp4",
            contentType: "video/mp4",
            bytes: 10,
            createdAt: "2025-01-02T03:04:05.678Z",
            expiresAt: null,
            deletedAt: null,
            purgedAt: null
          })
          // Its own transaction (for its lock) becomes a savepoint of this one.
          const secret = { id: randomUUID(), workspaceId, secret: "whsec_c2VjcmV0", createdAt: "2025-01-02T03:04:05.678Z", expiresAt: null }
          expect(yield* (yield* WebhookSecretStore).add(secret, 5)).toBe(true)
          return yield* Effect.fail("abort" as const)
        })).pipe(Effect.flip)
        expect(failed).toBe("abort")

        expect(Option.isNone(yield* (yield* WorkspaceStore).get(workspaceId))).toBe(true)
        expect(Option.isNone(yield* (yield* WorkspaceStore).findTokenByHash(`hash-${workspaceId}`))).toBe(true)
        expect(Option.isNone(yield* (yield* VideoStore).getById(video.id))).toBe(true)
        expect(Option.isNone(yield* (yield* VideoStore).getWords(video.id))).toBe(true)
        expect(Option.isNone(yield* (yield* CaptionRemovalStore).getById(removal.id))).toBe(true)
        expect(yield* templates.list(workspaceId)).toEqual([])
        expect(yield* (yield* Ledger).list(workspaceId)).toEqual([])
        expect(Option.isNone(yield* (yield* JobQueue).get(yield* Ref.get(jobId)))).toBe(true)
        expect(Option.isNone(yield* (yield* Outbox).get(eventId))).toBe(true)
        expect(yield* (yield* Outbox).attempts(eventId)).toEqual([])
        expect(Option.isNone(yield* (yield* IdempotencyStore).get(workspaceId, "k"))).toBe(true)
        expect(Option.isNone(yield* (yield* FileStore).get(fileId))).toBe(true)
        expect(yield* (yield* WebhookSecretStore).list(workspaceId)).toEqual([])
      })))

    it.scopedLive("wakes a waiting worker with a NOTIFY long before its longest wait", () =>
      withStores(Effect.gen(function*() {
        const jobs = yield* JobQueue
        yield* startListening(jobs)
        const waiting = yield* Effect.fork(jobs.waitForWork("media", "1 hour"))
        yield* Effect.yieldNow().pipe(Effect.repeatN(5))
        const job = Option.getOrThrow(yield* jobs.enqueue(aJob("media")))
        // Without the notification this join would wait for the hour, and the test would time out.
        yield* Fiber.join(waiting)
        yield* jobs.complete(job.id)
      })))

    it.scopedLive("sends neither a job nor a wake-up from a transaction that rolls back", () =>
      withStores(Effect.gen(function*() {
        const jobs = yield* JobQueue
        yield* startListening(jobs)
        const media = yield* Effect.fork(jobs.waitForWork("media", "1 hour"))
        const webhooks = yield* Effect.fork(jobs.waitForWork("webhooks", "1 hour"))
        yield* Effect.yieldNow().pipe(Effect.repeatN(5))
        const rolledBack = yield* Ref.make("")
        yield* (yield* Transactor).atomically(
          jobs.enqueue(aJob("media")).pipe(
            Effect.tap((job) => Ref.set(rolledBack, Option.getOrThrow(job).id)),
            Effect.zipRight(Effect.fail("abort"))
          )
        ).pipe(Effect.ignore)
        // Notifications arrive in commit order: once this one is through, the media one would have been too.
        const delivery = Option.getOrThrow(yield* jobs.enqueue(aJob("webhooks")))
        yield* Fiber.join(webhooks)
        yield* Effect.yieldNow().pipe(Effect.repeatN(5))
        expect(Option.isNone(yield* Fiber.poll(media))).toBe(true)
        expect(Option.isNone(yield* jobs.get(yield* Ref.get(rolledBack)))).toBe(true)
        expect(Option.isNone(yield* jobs.claim("media", 60_000, "test-claimer"))).toBe(true)
        yield* Fiber.interrupt(media)
        yield* jobs.complete(delivery.id)
      })))

    it.scopedLive("never hands one job to claimers on separate connections", () =>
      Effect.gen(function*() {
        const url = yield* testDatabase()
        const queues = yield* Effect.forEach(Array.from({ length: 5 }), () =>
          Effect.map(separateQueue(url), (context) => Context.get(context, JobQueue)))
        const ids = yield* Effect.forEach(
          Array.from({ length: 50 }, (_, i) => aJob("media", -i)),
          (input) => Effect.map(queues[0]!.enqueue(input), (job) => Option.getOrThrow(job).id)
        )
        const drain = (queue: JobQueueShape, taken: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>> =>
          taken.length > ids.length ? Effect.succeed(taken) : Effect.flatMap(queue.claim("media", 60_000, "test-claimer"), Option.match({
            onNone: () => Effect.succeed(taken),
            onSome: (job) => drain(queue, [...taken, job.id])
          }))
        const claimed = (yield* Effect.forEach(queues, (queue) => drain(queue, []), { concurrency: "unbounded" })).flat()
        expect(claimed).toHaveLength(50)
        expect(new Set(claimed)).toEqual(new Set(ids))
      }))

    it.scopedLive("never runs more of a workspace's jobs than its plan allows, whatever the claimers on separate connections", () =>
      Effect.gen(function*() {
        const url = yield* testDatabase()
        const queues = yield* Effect.forEach(Array.from({ length: 6 }), () =>
          Effect.map(separateQueue(url), (context) => Context.get(context, JobQueue)))
        const workspaces = Context.get(
          yield* Layer.build(PgWorkspaceStoreLive.pipe(Layer.provide(PgClientLive(url, 1)))).pipe(Effect.orDie),
          WorkspaceStore
        )
        const free = aWorkspace({ plan: "free" })
        const creator = aWorkspace({ plan: "creator" })
        yield* Effect.forEach([free, creator], workspaces.insert)
        for (let round = 0; round < 10; round++) {
          const inputs = [
            ...Array.from({ length: 8 }, (_, i) => ({ ...aJob("media", -i), workspaceId: free.id })),
            ...Array.from({ length: 8 }, (_, i) => ({ ...aJob("media", -i), workspaceId: creator.id })),
            ...Array.from({ length: 4 }, (_, i) => aJob("media", -i))
          ]
          yield* Effect.forEach(inputs, (input) => queues[0]!.enqueue(input))
          const drain = (queue: JobQueueShape, taken: ReadonlyArray<Job>): Effect.Effect<ReadonlyArray<Job>> =>
            taken.length > inputs.length ? Effect.succeed(taken) : Effect.flatMap(queue.claim("media", 60_000, "test-claimer"), Option.match({
              onNone: () => Effect.succeed(taken),
              onSome: (job) => drain(queue, [...taken, job])
            }))
          const claimed = (yield* Effect.forEach(queues, (queue) => drain(queue, []), { concurrency: "unbounded" })).flat()
          const count = (workspaceId: string | null) => claimed.filter((job) => job.workspaceId === workspaceId).length
          expect([count(free.id), count(creator.id), count(null)]).toEqual([1, 2, 4])
          // Each round ends with every job done, so the next starts with no workspace's job running.
          yield* Effect.forEach(claimed, (job) => queues[0]!.complete(job.id))
          const finishOne: Effect.Effect<boolean> = Effect.flatMap(queues[0]!.claim("media", 60_000, "test-claimer"), Option.match({
            onNone: () => Effect.succeed(false),
            onSome: (job) => Effect.as(queues[0]!.complete(job.id), true)
          }))
          yield* finishOne.pipe(Effect.repeat({ while: (ran) => ran, times: inputs.length }))
        }
      }))

    it.scopedLive("lets exactly one of two processes use a code or refresh token first", () =>
      Effect.gen(function*() {
        const url = yield* testDatabase()
        const first = yield* separateOAuthStores(url)
        const store = Context.get(first, OAuthStore)
        const other = Context.get(yield* separateOAuthStores(url), OAuthStore)
        const { ids } = yield* Effect.provide(grantParents, first)
        const grant = aGrant(ids)
        yield* store.insertGrant(grant)

        /** Four uses from each process at once, each at its own instant; every outcome shows the winner's. */
        const race = <A extends { readonly usedAt: string | null }>(
          use: (oauth: OAuthStoreShape, at: string) => Effect.Effect<SingleUse<A>>
        ) =>
          Effect.gen(function*() {
            const outcomes = yield* Effect.all(
              Array.from({ length: 8 }, (_, i) => use(i % 2 === 0 ? store : other, `2025-01-02T03:04:${10 + i}.000Z`)),
              { concurrency: "unbounded" }
            )
            expect(tagsOf(outcomes)).toEqual({ First: 1, Replayed: 7 })
            const usedAt = outcomes.flatMap((o) => o._tag === "First" ? [o.value.usedAt] : [])
            expect(outcomes.map((o) => o._tag === "Unknown" ? null : o.value.usedAt)).toEqual(Array(8).fill(usedAt[0]))
          })

        for (let round = 0; round < 25; round++) {
          const code = aCode(grant.id)
          const refresh = anOAuthToken(grant.id, "refresh")
          yield* store.insertCode(code)
          yield* store.insertToken(refresh)
          yield* race((oauth, at) => oauth.consumeCode(code.hash, at))
          yield* race((oauth, at) => oauth.useRefreshToken(refresh.hash, at))
        }
      }))

    it.scopedLive("migrates a new database from two processes at once", () =>
      Effect.gen(function*() {
        const url = yield* testDatabase({ empty: true })
        const migrate = Layer.build(PgMigrationsLive.pipe(Layer.provide(PgClientLive(url, 2))))
        yield* Effect.all([migrate, migrate], { concurrency: "unbounded" })
        const sql = Context.get(yield* Layer.build(PgClientLive(url, 1)), SqlClient.SqlClient)
        expect(yield* sql`SELECT migration_id, name FROM effect_sql_migrations ORDER BY migration_id`).toEqual([
          { migration_id: 1, name: "initial" },
          { migration_id: 2, name: "job_leases_index" },
          { migration_id: 3, name: "video_projects" },
          { migration_id: 4, name: "uploads" },
          { migration_id: 5, name: "users_and_oauth" },
          { migration_id: 6, name: "ledger_logs" },
          { migration_id: 7, name: "video_lifecycle" },
          { migration_id: 8, name: "plan_limits" },
          { migration_id: 9, name: "provider_keys" },
          { migration_id: 10, name: "caption_removals" },
          { migration_id: 11, name: "caption_edits" },
          { migration_id: 12, name: "idempotency_reservations" },
          { migration_id: 13, name: "caption_font_families" },
          { migration_id: 14, name: "file_purges" },
          { migration_id: 15, name: "video_language" },
          { migration_id: 16, name: "video_transcript" },
          { migration_id: 17, name: "workspace_vocabularies" },
          { migration_id: 18, name: "job_claimers" },
          { migration_id: 19, name: "job_trace_parents" },
          { migration_id: 20, name: "webhook_secrets" },
          { migration_id: 21, name: "oauth_sweep" },
          { migration_id: 22, name: "workspace_notices" },
          { migration_id: 23, name: "caption_hooks_and_platforms" },
          { migration_id: 24, name: "video_trims" },
          { migration_id: 25, name: "caption_emoji" },
          { migration_id: 26, name: "caption_reframes" },
          { migration_id: 27, name: "clips" },
          { migration_id: 28, name: "clips_by_video" },
          { migration_id: 29, name: "face_analyses" }
        ])
        expect(yield* sql`SELECT to_regclass('jobs') IS NOT NULL AS present`).toEqual([{ present: true }])
      }))

    it.scopedLive("listens again after its connection drops", () =>
      Effect.gen(function*() {
        const url = yield* testDatabase()
        const context = yield* separateQueue(url, "100 millis")
        const jobs = Context.get(context, JobQueue)
        const sql = Context.get(context, SqlClient.SqlClient)
        yield* startListening(jobs)
        const listeners = sql<{ readonly pid: number }>`SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%'`
        const [before] = yield* listeners
        expect(yield* sql`SELECT pg_terminate_backend(${before!.pid}) AS done`).toEqual([{ done: true }])
        // Bounded: a listener that never comes back fails here rather than hanging.
        yield* listeners.pipe(
          Effect.filterOrFail((rows) => rows.length === 1 && rows[0]!.pid !== before!.pid),
          Effect.retry(Schedule.intersect(Schedule.spaced("50 millis"), Schedule.recurs(200))),
          Effect.orElse(() => Effect.dieMessage("no new LISTEN connection"))
        )
        // Re-listening wakes every lane once; of two wake-ups in a row, at least one is the notification.
        for (let round = 0; round < 2; round++) {
          const waiting = yield* Effect.fork(jobs.waitForWork("media", "1 hour"))
          yield* Effect.yieldNow().pipe(Effect.repeatN(5))
          yield* jobs.enqueue(aJob("media"))
          yield* Fiber.join(waiting)
        }
      }))
  })
}
