// Running the ffmpeg tools: a killable child process, its error in a sentence, filter-graph escaping
// and -progress lines. Shared by the adapters that build ffmpeg commands.
import { spawn } from "node:child_process"
import type { Writable } from "node:stream"
import { Effect } from "effect"
import type { ByteSink } from "../../domain/ports/animated-frames.ts"

export const QUIET = ["-nostdin", "-y", "-hide_banner", "-v", "error"]
export const AAC_ARGS = ["-c:a", "aac", "-b:a", "128k"]
const STDERR_TAIL_CHARS = 16_000

export interface ToolResult {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Writes into a pipe the tool reads as it runs (`pipe:3`, `pipe:4`... in ffmpeg's words). */
export type Feed<E> = (sink: ByteSink) => Effect.Effect<unknown, E>

/** A pipe to the tool as a sink: false once the tool has closed its end (it exited, or stopped reading). */
const sinkOf = (pipe: Writable): ByteSink => {
  let open = true
  pipe.on("error", () => {
    open = false
  })
  return (bytes) =>
    new Promise((resolve) => {
      if (!open || pipe.destroyed) return resolve(false)
      const settle = (ok: boolean) => () => {
        pipe.off("drain", drained).off("close", closed)
        resolve(ok && open)
      }
      const drained = settle(true)
      const closed = settle(false)
      if (pipe.write(bytes)) return resolve(true)
      pipe.once("drain", drained).once("close", closed)
    })
}

/**
 * Runs a tool to its exit, with each of `feeds` writing into its own pipe as it runs (then closing it).
 * Interrupting the fiber, or a feed failing, kills the process, so a cancelled job stops its encode.
 * stdout goes to `onLine` line by line when given, otherwise it is collected.
 */
export const spawnTool = <E = never>(
  binary: string,
  args: ReadonlyArray<string>,
  onLine?: (line: string) => void,
  feeds: ReadonlyArray<Feed<E>> = []
): Effect.Effect<ToolResult, E> =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe", ...feeds.map(() => "pipe" as const)] })
      // Listeners now, before anything else runs: a failed start is reported on the next tick.
      const exited = new Promise<ToolResult | Error>((resolve) => {
        let stdout = ""
        let pending = ""
        let stderr = ""
        child.stdout!.setEncoding("utf8")
        child.stderr!.setEncoding("utf8")
        child.stdout!.on("data", (chunk: string) => {
          if (onLine === undefined) {
            stdout += chunk
            return
          }
          const lines = (pending + chunk).split("\n")
          pending = lines.pop() ?? ""
          lines.forEach(onLine)
        })
        child.stderr!.on("data", (chunk: string) => {
          stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS)
        })
        child.on("error", (error) => resolve(new Error(`Could not run ${binary}: ${error.message}`)))
        child.on("close", (code) => {
          if (pending !== "" && onLine !== undefined) onLine(pending)
          resolve({ code, stdout, stderr })
        })
      })
      const sinks = feeds.map((_, i) => {
        const pipe = child.stdio[3 + i] as Writable
        return { pipe, sink: sinkOf(pipe) }
      })
      return { child, exited, sinks }
    }),
    ({ exited, sinks }) =>
      Effect.all([
        Effect.flatMap(Effect.promise(() => exited), (result) => result instanceof Error ? Effect.die(result) : Effect.succeed(result)),
        ...feeds.map((feed, i) => feed(sinks[i]!.sink).pipe(Effect.ensuring(Effect.sync(() => sinks[i]!.pipe.end()))))
      ], { concurrency: "unbounded" }).pipe(Effect.map(([result]) => result)),
    ({ child }) =>
      Effect.sync(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
      })
  )

/** The last lines of stderr that say something (ffmpeg's closing "Conversion failed!" says nothing). */
export const lastError = (stderr: string, path?: string): string => {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && line !== "Conversion failed!")
    .slice(-3)
    .map((line) => (path !== undefined && line.startsWith(`${path}: `) ? line.slice(path.length + 2) : line))
  const text = lines.join(" / ")
  return text === "" ? "no error output" : text.slice(0, 600)
}

/**
 * A string as one value of a filter option: quoted for the option parser, then every character the
 * filter-graph parser treats specially is backslash-escaped (the two levels of ffmpeg-filters "Notes on
 * filtergraph escaping").
 */
export const filterValue = (value: string): string =>
  `'${value.replace(/'/g, "'\\''")}'`.replace(/[\\'[\],;]/g, (c) => `\\${c}`)

/** A `-progress pipe:1` line reader that reports the fraction of `durationSeconds` encoded (0..1). */
export const progressLines = (durationSeconds: number, onProgress: ((fraction: number) => void) | undefined) =>
  (line: string): void => {
    if (onProgress === undefined) return
    const [key, value] = line.trim().split("=")
    if (key === "progress" && value === "end") onProgress(1)
    else if (key === "out_time_us" && durationSeconds > 0) {
      const us = Number(value)
      if (Number.isFinite(us)) onProgress(Math.min(1, Math.max(0, us / 1e6 / durationSeconds)))
    }
  }
