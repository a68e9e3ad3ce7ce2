// The monthly grant of each plan's credits, driven by TestClock across month boundaries on the memory
// and the PostgreSQL stores: the job the worker runs, its next run at the first of the next month
// (UTC), one grant per workspace and month however often it runs, and only to workspaces made before
// the month began.
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStoresLive } from "../../adapters/memory/memory-layer.ts"
import { PLAN_RULES, type Plan } from "../../domain/plans.ts"
import { JobQueue } from "../../domain/ports/job-queue.ts"
import { Ledger } from "../../domain/ports/ledger.ts"
import { WorkspaceStore } from "../../domain/ports/workspace-store.ts"
import { makeJobRunner } from "../../src/kernel/job-runner.ts"
import { ServiceConfig } from "../../src/kernel/service-config.ts"
import { grantMonthlyCredits, grantMonthlyCreditsJob, scheduleMonthlyGrants } from "../../src/ops/plans/grant-monthly-credits.job.ts"
import { aWorkspace } from "../contract/fixtures.ts"
import { PgTestStores, postgresSkipReason } from "../support/pg-test-db.ts"

const worker = makeJobRunner([grantMonthlyCreditsJob])

const at = (iso: string) => Date.parse(iso)

const monthlyCreditsSuite = (name: string, stores: Layer.Layer<JobQueue | Ledger | WorkspaceStore, unknown>) =>
  layer(Layer.merge(stores, ServiceConfig.layer({ baseUrl: "http://127.0.0.1:1", workDir: join(tmpdir(), `reelwright-monthly-credits-${process.pid}`) })), { timeout: "60 seconds" })(`monthly credits (${name})`, (it) => {
    it.effect("grants each plan's credits once a month from the first (UTC), to workspaces made before the month began", () =>
      Effect.gen(function*() {
        const workspaces = yield* WorkspaceStore
        const ledger = yield* Ledger
        const jobs = yield* JobQueue
        yield* TestClock.setTime(at("2025-01-15T12:00:00.000Z"))
        const made = (plan: Plan, createdAt: string) => {
          const workspace = aWorkspace({ plan, createdAt })
          return Effect.as(workspaces.insert(workspace), workspace.id)
        }
        const creator = yield* made("creator", "2024-12-20T08:00:00.000Z")
        const free = yield* made("free", "2024-12-31T23:59:59.999Z")
        // Made at the first instant of January: its opening balance covers January.
        const january = yield* made("pro", "2025-01-01T00:00:00.000Z")
        const grants = (workspaceId: string) =>
          Effect.map(ledger.list(workspaceId), (entries) =>
            entries.map((e) => [e.key, e.amount, e.operation, e.balanceAfter, e.at] as const))

        // The worker queues this month's job as it starts; the job grants at once.
        yield* scheduleMonthlyGrants
        yield* worker.drain("media")
        const januaryAt = "2025-01-15T12:00:00.000Z"
        expect(yield* grants(creator)).toEqual([[`${creator}:monthly:2025-01`, 1_000, "monthly grant", 1_000, januaryAt]])
        expect(yield* grants(free)).toEqual([[`${free}:monthly:2025-01`, 50, "monthly grant", 50, januaryAt]])
        expect(yield* grants(january)).toEqual([])
        expect(Option.getOrThrow(yield* jobs.nextRunAt("media"))).toBe(at("2025-02-01T00:00:00.000Z"))

        // Another worker starting, and the sweep run again (a retried job), grant nothing more.
        yield* scheduleMonthlyGrants
        yield* worker.drain("media")
        expect(yield* grantMonthlyCredits).toBe(0)
        expect(yield* ledger.balance(creator)).toBe(1_000)

        // A millisecond before February nothing is due; at its first instant every workspace gets February's.
        yield* TestClock.setTime(at("2025-01-31T23:59:59.999Z"))
        yield* worker.drain("media")
        expect(yield* ledger.balance(january)).toBe(0)
        yield* TestClock.adjust(1)
        yield* worker.drain("media")
        expect((yield* grants(creator)).map(([key, amount]) => [key, amount])).toEqual([
          [`${creator}:monthly:2025-01`, 1_000],
          [`${creator}:monthly:2025-02`, 1_000]
        ])
        expect(yield* grants(january)).toEqual([
          [`${january}:monthly:2025-02`, PLAN_RULES.pro.monthlyCredits, "monthly grant", 5_000, "2025-02-01T00:00:00.000Z"]
        ])
        expect(yield* ledger.balance(free)).toBe(100)
        expect(Option.getOrThrow(yield* jobs.nextRunAt("media"))).toBe(at("2025-03-01T00:00:00.000Z"))

        // A plan change shows in the next month's grant. Sweeps racing each other (several workers)
        // still grant once per workspace, and the job due then adds nothing.
        yield* workspaces.update({ ...Option.getOrThrow(yield* workspaces.get(free)), plan: "business" })
        yield* TestClock.setTime(at("2025-03-01T00:00:00.000Z"))
        const raced = yield* Effect.all(Array.from({ length: 4 }, () => grantMonthlyCredits), { concurrency: "unbounded" })
        expect(raced.reduce((a, b) => a + b, 0)).toBe(3)
        yield* Effect.all([worker.drain("media"), worker.drain("media")], { concurrency: "unbounded" })
        expect(yield* ledger.balance(free)).toBe(100 + PLAN_RULES.business.monthlyCredits)
        expect((yield* ledger.list(creator)).map((e) => e.key)).toEqual(
          ["2025-01", "2025-02", "2025-03"].map((month) => `${creator}:monthly:${month}`)
        )

        // December's job runs the next year's January grant.
        yield* TestClock.setTime(at("2025-12-31T23:59:59.999Z"))
        yield* worker.drain("media")
        expect(Option.getOrThrow(yield* jobs.nextRunAt("media"))).toBe(at("2026-01-01T00:00:00.000Z"))
        yield* TestClock.adjust(1)
        yield* worker.drain("media")
        expect((yield* ledger.list(january)).at(-1)?.key).toBe(`${january}:monthly:2026-01`)
      }))
  })

monthlyCreditsSuite("memory", MemoryStoresLive)

describe.skipIf(postgresSkipReason !== undefined)("on PostgreSQL", () => {
  monthlyCreditsSuite("postgres", PgTestStores())
})
