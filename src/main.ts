// Starts a Reelwright process: `node --import tsx src/main.ts [api|worker|all]` (ROLE when no argument;
// default all). Reads the configuration, lets app-layer pick the adapters, and runs the role until
// SIGTERM or SIGINT, which NodeRuntime turns into an interruption: exit code 0 once the role stopped.
import { NodeRuntime } from "@effect/platform-node"
import { Cause, ConfigProvider, Effect, Either } from "effect"
import { mkdir } from "node:fs/promises"
import { tracingLayer } from "../adapters/telemetry/otlp-tracing.ts"
import packageJson from "../package.json" with { type: "json" }
import { appLayerFromEnv } from "./app-layer.ts"
import { LoggingConfig, loggingLayer, logProcessWarnings } from "./kernel/logging.ts"
import { WORKER_ID } from "./kernel/worker-id.ts"
import { roleSettings, runRole } from "./roles.ts"

const program = Effect.gen(function*() {
  yield* logProcessWarnings
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

/** A refusal is a sentence for the operator, not a stack trace. */
const refuse = (message: string) =>
  Effect.sync(() => {
    process.stderr.write(`Reelwright did not start: ${message}\n`)
    process.exitCode = 1
  })

const main = Effect.gen(function*() {
  // LOG_FORMAT and LOG_LEVEL (kernel/logging.ts): JSON lines unless stdout is a terminal.
  const logging = yield* Effect.either(LoggingConfig)
  if (Either.isLeft(logging)) return yield* refuse(String(logging.left))
  return yield* program.pipe(
    // OTEL_EXPORTER_OTLP_ENDPOINT: spans go to the collector; without it the tracer is off.
    Effect.provide(tracingLayer({ serviceVersion: packageJson.version, instanceId: WORKER_ID })),
    Effect.catchTag("StartupRefused", (refused) => refuse(refused.message)),
    // Logged here, in the chosen format: runMain's own report would be in neither.
    Effect.tapErrorCause((cause) => Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("Reelwright stopped on an error", cause)),
    Effect.provide(loggingLayer(logging.right))
  )
})

main.pipe(
  Effect.withConfigProvider(config),
  (effect) => NodeRuntime.runMain(effect, { disableErrorReporting: true, disablePrettyLogger: true })
)
