// Starts a Reelwright process: `node --import tsx src/main.ts [api|worker|all]` (ROLE when no argument;
// default all). Reads the configuration, lets app-layer pick the adapters, and runs the role until
// SIGTERM or SIGINT, which NodeRuntime turns into an interruption: exit code 0 once the role stopped.
import { NodeRuntime } from "@effect/platform-node"
import { ConfigProvider, Effect, Layer, Logger, LogLevel } from "effect"
import { mkdir } from "node:fs/promises"
import { appLayerFromEnv } from "./app-layer.ts"
import { roleSettings, runRole } from "./roles.ts"

const program = Effect.gen(function*() {
  const s = yield* roleSettings
  yield* Effect.promise(() => mkdir(s.workDir, { recursive: true }))
  const { layer, ...description } = yield* appLayerFromEnv({
    baseUrl: s.baseUrl,
    workDir: s.workDir,
    dataDir: s.dataDir,
    adminToken: s.adminToken,
    rateLimits: s.rateLimits,
    requestLimits: s.requestLimits
  })
  return yield* runRole(s, description).pipe(Effect.provide(layer))
})

const argument = process.argv[2]
const config = argument === undefined
  ? ConfigProvider.fromEnv()
  : ConfigProvider.orElse(ConfigProvider.fromMap(new Map([["ROLE", argument]])), ConfigProvider.fromEnv)

program.pipe(
  // A refusal is a sentence for the operator, not a stack trace.
  Effect.catchTag("StartupRefused", (refused) =>
    Effect.sync(() => {
      process.stderr.write(`Reelwright did not start: ${refused.message}\n`)
      process.exitCode = 1
    })),
  Effect.withConfigProvider(config),
  Effect.provide(Logger.minimumLogLevel(LogLevel.Info)),
  // No tracer exports spans yet, and recording them (with their stack traces) is a large share of a
  // request's CPU time: off until an OpenTelemetry exporter is configured.
  Effect.provide(Layer.setTracerEnabled(false)),
  NodeRuntime.runMain
)
