// Reads the configuration, assembles one Layer and launches the API and the worker in one process.
import { NodeRuntime } from "@effect/platform-node"
import { Config, Effect, Logger, LogLevel } from "effect"
import { mkdir } from "node:fs/promises"
import { resolve } from "node:path"
import { HttpServerLive } from "../adapters/http/server.ts"
import { embeddedLayer } from "./app-layer.ts"
import { randomToken } from "./kernel/secrets.ts"
import { createWorkspaceNow } from "./ops/workspaces/create-workspace.ts"
import { worker } from "./worker.ts"

const settings = Effect.gen(function*() {
  const port = yield* Config.integer("PORT").pipe(Config.withDefault(8080))
  const dataDir = resolve(yield* Config.string("DATA_DIR").pipe(Config.withDefault("./data")))
  const baseUrl = (yield* Config.string("BASE_URL").pipe(Config.withDefault(`http://localhost:${port}`))).replace(/\/+$/, "")
  const devToken = yield* Config.option(Config.string("DEV_API_TOKEN"))
  const adminToken = yield* Config.string("ADMIN_TOKEN").pipe(Config.withDefault(randomToken("rwadmin_")))
  const concurrency = yield* Config.integer("WORKER_CONCURRENCY").pipe(Config.withDefault(1))
  return { port, dataDir, baseUrl, workDir: `${dataDir}/work`, devToken, adminToken, concurrency }
})

/** The development workspace every embedded start creates: a paid plan with 10,000 credits. */
const announce = (s: Effect.Effect.Success<typeof settings>) =>
  Effect.gen(function*() {
    const dev = yield* createWorkspaceNow({
      name: "Development",
      ownerEmail: "dev@localhost.localdomain",
      plan: "pro",
      credits: 10_000,
      ...(s.devToken._tag === "Some" ? { token: s.devToken.value } : {})
    })
    const lines = [
      "",
      `Reelwright is listening on ${s.baseUrl}`,
      `  API docs:       ${s.baseUrl}/docs`,
      `  API token:      ${dev.token}   (workspace ${dev.workspaceId}, plan pro, 10000 credits)`,
      `  Admin token:    ${s.adminToken}   (for the CLI: ADMIN_TOKEN=... npm run cli -- ...)`,
      `  Files:          ${s.dataDir}`,
      "  Store:          in memory. Records (workspaces, tokens, videos, credits) do NOT survive a restart.",
      ""
    ]
    yield* Effect.sync(() => process.stdout.write(lines.join("\n") + "\n"))
  })

const program = Effect.gen(function*() {
  const s = yield* settings
  yield* Effect.promise(() => mkdir(`${s.workDir}`, { recursive: true }))
  const app = embeddedLayer({ baseUrl: s.baseUrl, workDir: s.workDir, dataDir: s.dataDir, adminToken: s.adminToken })
  const launch = Effect.gen(function*() {
    yield* announce(s)
    yield* worker.run({ pollInterval: "1 second", concurrency: { media: s.concurrency, webhooks: 4 }, grace: "25 seconds" })
  })
  return yield* launch.pipe(Effect.provide(HttpServerLive(s.port)), Effect.provide(app))
})

program.pipe(
  Effect.provide(Logger.minimumLogLevel(LogLevel.Info)),
  NodeRuntime.runMain
)
