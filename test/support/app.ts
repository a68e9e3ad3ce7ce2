// The whole service in the test process: real HTTP on a loopback port, in-memory stores, real
// media tools, the worker running in the background. Tests talk to it with fetch.
import { HttpServer } from "@effect/platform"
import { ConfigProvider, Effect, Layer, Logger, LogLevel, ManagedRuntime, Redacted } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { listenerLayer } from "../../adapters/http/node-listener.ts"
import { DEFAULT_REQUEST_LIMITS, type RequestLimitSettings } from "../../adapters/http/request-limits.ts"
import { HttpAppLive } from "../../adapters/http/server.ts"
import type { RateLimitSettings } from "../../adapters/http/token-rate-limits.ts"
import { appLayerFromEnv, embeddedLayer } from "../../src/app-layer.ts"
import type { CurrentWorkspace } from "../../src/kernel/current-workspace.ts"
import { addMember } from "../../src/ops/users/add-member.ts"
import { createUser } from "../../src/ops/users/create-user.ts"
import { createWorkspaceNow } from "../../src/ops/workspaces/create-workspace.ts"
import { worker } from "../../src/worker.ts"
import type { Plan } from "../../domain/plans.ts"
import type { FaceFinder } from "../../domain/ports/face-finder.ts"

export const ADMIN_TOKEN = "rwadmin_test_token_0123456789"

/**
 * Tests poll and fire parallel requests with one token: budgets far above what they send keep the
 * limiter in every request's path without refusing any. test/e2e/rate-limits.test.ts sets small ones.
 */
const GENEROUS_RATE_LIMITS: RateLimitSettings = {
  reads: { perSecond: 1000, burst: 1000 },
  writes: { perSecond: 1000, burst: 1000 }
}

/** Admin operations never read the current workspace; their handler types still name it (as every operation's do). */
const asAdmin = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect as Effect.Effect<A, E, Exclude<R, CurrentWorkspace>>

export interface TestApp {
  readonly baseUrl: string
  readonly dataDir: string
  readonly runtime: ManagedRuntime.ManagedRuntime<any, any>
  readonly createWorkspace: (
    options?: { plan?: Plan; credits?: number; name?: string; ownerEmail?: string }
  ) => Promise<{ workspaceId: string; token: string }>
  /** A user who signs in with `password`, a member of each workspace given (through the CLI's use cases). */
  readonly createUser: (options: {
    email: string
    password: string
    workspaces?: ReadonlyArray<{ workspaceId: string; role?: "owner" | "member" }>
  }) => Promise<{ userId: string }>
  readonly close: () => Promise<void>
}

export const startApp = async (
  options: {
    worker?: boolean
    rateLimits?: RateLimitSettings
    /** Records in this PostgreSQL database (chosen as DATABASE_URL would choose it) instead of in memory. */
    databaseUrl?: Redacted.Redacted<string>
    /** Body caps and deadlines; the service's defaults when left out. */
    requestLimits?: RequestLimitSettings
    /** A stand-in for the face finder (one that holds, to see what the service shows meanwhile). */
    faceFinder?: Layer.Layer<FaceFinder>
  } = {}
): Promise<TestApp> => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelwright-test-"))
  const requestLimits = options.requestLimits ?? DEFAULT_REQUEST_LIMITS
  const listener = listenerLayer(requestLimits, { port: 0, host: "127.0.0.1" })
  // The base URL is only known once the port is bound; links are built from it.
  const layer = Layer.unwrapEffect(Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    const port = address._tag === "TcpAddress" ? address.port : 0
    const settings = {
      baseUrl: `http://127.0.0.1:${port}`,
      workDir: join(dataDir, "work"),
      dataDir,
      adminToken: ADMIN_TOKEN,
      rateLimits: options.rateLimits ?? GENEROUS_RATE_LIMITS,
      requestLimits
    }
    const app = options.databaseUrl === undefined
      ? embeddedLayer(settings)
      : yield* appLayerFromEnv(settings).pipe(
        Effect.map((chosen) => chosen.layer),
        Effect.withConfigProvider(ConfigProvider.fromJson({ DATABASE_URL: Redacted.value(options.databaseUrl) })),
        Effect.orDie
      )
    // The stand-in comes last: it replaces the app's own where the worker's jobs ask for one.
    return Layer.mergeAll(app, HttpAppLive.pipe(Layer.provide(app)), options.faceFinder ?? Layer.empty)
  })).pipe(Layer.provideMerge(listener), Layer.provide(Logger.minimumLogLevel(LogLevel.Warning)))
  const runtime = ManagedRuntime.make(layer)
  const server = await runtime.runPromise(HttpServer.HttpServer)
  const address = server.address
  const baseUrl = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
  if (options.worker !== false) {
    runtime.runFork(worker.run({ pollInterval: "100 millis", concurrency: { media: 1, webhooks: 2 }, grace: "1 second" }))
  }
  return {
    baseUrl,
    dataDir,
    runtime,
    createWorkspace: (o = {}) =>
      runtime.runPromise(createWorkspaceNow({
        name: o.name ?? "Test workspace",
        ownerEmail: o.ownerEmail ?? "test@example.com",
        plan: o.plan ?? "pro",
        credits: o.credits ?? 10_000
      })),
    createUser: (o) =>
      runtime.runPromise(Effect.gen(function*() {
        const email = o.email.toLowerCase()
        const { userId } = yield* asAdmin(createUser.handle({ email, password: o.password }))
        for (const w of o.workspaces ?? []) {
          yield* asAdmin(addMember.handle({ workspaceId: w.workspaceId, email, role: w.role ?? "member" }))
        }
        return { userId }
      })),
    close: async () => {
      await runtime.dispose()
      await rm(dataDir, { recursive: true, force: true })
    }
  }
}
