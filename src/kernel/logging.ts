// How a process logs, chosen once for main: JSON lines (json-logger.ts) when stdout goes to a file, a
// pipe or a collector, Effect's pretty format for a person at a terminal. LOG_FORMAT forces one,
// LOG_LEVEL sets the least severe level written.
import { Config, Effect, Layer, Logger, LogLevel, Runtime } from "effect"
import { jsonLogger } from "./json-logger.ts"
import { stdoutLines } from "./log-sink.ts"

export type LogFormat = "json" | "pretty"

export const LogFormatConfig: Config.Config<LogFormat> = Config.literal("json", "pretty")("LOG_FORMAT").pipe(
  Config.withDefault(process.stdout.isTTY === true ? "pretty" as const : "json" as const)
)

const LEVELS = {
  trace: LogLevel.Trace,
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  error: LogLevel.Error
} as const

export const LogLevelConfig: Config.Config<LogLevel.LogLevel> = Config.literal("trace", "debug", "info", "warning", "error")("LOG_LEVEL").pipe(
  Config.withDefault("info" as const),
  Config.map((name) => LEVELS[name])
)

/** The logger and least level the environment asks for. */
export const LoggingConfig = Config.all({ format: LogFormatConfig, level: LogLevelConfig })

export const loggingLayer = ({ format, level }: { readonly format: LogFormat; readonly level: LogLevel.LogLevel }): Layer.Layer<never> =>
  Layer.merge(
    Logger.replace(Logger.defaultLogger, format === "json" ? Logger.map(jsonLogger, stdoutLines().write) : Logger.prettyLoggerDefault),
    Logger.minimumLogLevel(level)
  )

/**
 * Node's own warnings (a deprecation, a library's notice) as log lines in the chosen format: Node would
 * print them on stderr as text, a line no collector could parse.
 */
export const logProcessWarnings = Effect.gen(function*() {
  const runtime = yield* Effect.runtime<never>()
  process.removeAllListeners("warning")
  process.on("warning", (warning) =>
    Runtime.runSync(runtime)(Effect.logWarning(warning.message).pipe(Effect.annotateLogs({ warning: warning.name }))))
})
