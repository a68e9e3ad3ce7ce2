// The whole service in the test process: real HTTP on a loopback port, in-memory stores, real
// media tools, the worker running in the background. Tests talk to it with fetch.
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpAppLive } from "../../adapters/http/server.ts"
import { embeddedLayer } from "../../src/app-layer.ts"
import { createWorkspaceNow } from "../../src/ops/workspaces/create-workspace.ts"
import { worker } from "../../src/worker.ts"
import type { Plan } from "../../domain/plans.ts"

export const ADMIN_TOKEN = "rwadmin_test_token_0123456789"

export interface TestApp {
  readonly baseUrl: string
  readonly dataDir: string
  readonly runtime: ManagedRuntime.ManagedRuntime<any, any>
  readonly createWorkspace: (options?: { plan?: Plan; credits?: number }) => Promise<{ workspaceId: string; token: string }>
  readonly close: () => Promise<void>
}

export const startApp = async (options: { worker?: boolean } = {}): Promise<TestApp> => {
  const dataDir = await mkdtemp(join(tmpdir(), "reelwright-test-"))
  const listener = NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })
  // The base URL is only known once the port is bound; links are built from it.
  const layer = Layer.unwrapEffect(Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const address = server.address
    const port = address._tag === "TcpAddress" ? address.port : 0
    const app = embeddedLayer({
      baseUrl: `http://127.0.0.1:${port}`,
      workDir: join(dataDir, "work"),
      dataDir,
      adminToken: ADMIN_TOKEN
    })
    return Layer.merge(app, HttpAppLive.pipe(Layer.provide(app)))
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
        name: "Test workspace",
        ownerEmail: "test@example.com",
        plan: o.plan ?? "pro",
        credits: o.credits ?? 10_000
      })),
    close: async () => {
      await runtime.dispose()
      await rm(dataDir, { recursive: true, force: true })
    }
  }
}
