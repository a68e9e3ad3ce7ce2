// The JSON line's shape: fixed fields, annotations at the top level, durations in milliseconds under a
// name that says so, the cause as text, and a line even for values JSON cannot hold. And how LOG_FORMAT
// and LOG_LEVEL are read.
import { describe, expect, it } from "vitest"
import { ConfigProvider, Duration, Effect, Logger, LogLevel } from "effect"
import { jsonLogger } from "../../src/kernel/json-logger.ts"
import { LoggingConfig } from "../../src/kernel/logging.ts"

const logged = async (effect: Effect.Effect<void>): Promise<Array<Record<string, unknown>>> => {
  const lines: Array<string> = []
  const capture = Logger.map(jsonLogger, (line) => {
    lines.push(line)
  })
  await Effect.runPromise(effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture))))
  for (const line of lines) expect(line).not.toContain("\n")
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>)
}

describe("the JSON logger", () => {
  it("writes time, level and message, then the annotations as top-level fields", async () => {
    const [line] = await logged(Effect.logWarning("video failed").pipe(Effect.annotateLogs({ videoId: "v1", attempt: 2 })))
    expect(line).toEqual({ time: expect.any(String), level: "warn", message: "video failed", videoId: "v1", attempt: 2 })
    expect(new Date(line!["time"] as string).toISOString()).toBe(line!["time"])
  })

  it("writes a Duration as milliseconds, named ...Ms, never as its inner structure", async () => {
    const [line] = await logged(Effect.logInfo("step done").pipe(Effect.annotateLogs({
      duration: Duration.seconds(1.5),
      encodeMs: Duration.millis(20),
      timings: { probe: Duration.millis(7) }
    })))
    expect(line).toMatchObject({ durationMs: 1500, encodeMs: 20, timings: { probe: 7 } })
    expect(line).not.toHaveProperty("duration")
    expect(JSON.stringify(line)).not.toContain("Duration")
  })

  it("adds the cause as text and joins the parts of a message", async () => {
    const [line] = await logged(Effect.logError("job crashed", new Error("disk full")))
    expect(line).toMatchObject({ level: "error", message: "job crashed: disk full" })
    const [failed] = await logged(Effect.catchAllCause(Effect.fail(new Error("no space left")), (cause) => Effect.logError("request failed", cause)))
    expect(failed).toMatchObject({ message: "request failed", cause: expect.stringContaining("no space left") })
  })

  it("keeps its own fields from annotations of the same name, and writes what JSON cannot hold", async () => {
    const cycle: Record<string, unknown> = {}
    cycle["self"] = cycle
    const [line] = await logged(Effect.logInfo("hello").pipe(Effect.annotateLogs({ message: "not this", level: "nor this", bytes: 10n })))
    expect(line).toMatchObject({ message: "hello", level: "info", bytes: "10" })
    const [cyclic] = await logged(Effect.logInfo("still a line").pipe(Effect.annotateLogs({ cycle, n: 1 })))
    expect(cyclic).toMatchObject({ message: "still a line", cycle: "[object Object]" })
  })
})

describe("LOG_FORMAT and LOG_LEVEL", () => {
  const read = (env: Record<string, string>) =>
    Effect.runPromise(Effect.either(Effect.withConfigProvider(LoggingConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))))

  it("takes the format and level asked for, info by default", async () => {
    expect(await read({ LOG_FORMAT: "json", LOG_LEVEL: "warning" })).toMatchObject({ right: { format: "json", level: LogLevel.Warning } })
    expect(await read({ LOG_FORMAT: "pretty" })).toMatchObject({ right: { format: "pretty", level: LogLevel.Info } })
  })

  it("refuses a level or a format it does not know", async () => {
    expect(await read({ LOG_LEVEL: "loud" })).toMatchObject({ _tag: "Left" })
    expect(await read({ LOG_FORMAT: "xml" })).toMatchObject({ _tag: "Left" })
  })
})
