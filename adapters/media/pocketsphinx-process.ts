// Running Debian's pocketsphinx programs (pocketsphinx_continuous for recognition, pocketsphinx_batch
// for alignment): their output, a failure a person can act on, and the child killed when interrupted.
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { WorkFailed } from "../../domain/errors.ts"

const NOT_INSTALLED =
  "Speech recognition is not installed: install pocketsphinx (apt-get install pocketsphinx pocketsphinx-en-us), " +
  "set POCKETSPHINX_PATH to pocketsphinx_continuous, or choose another engine with TRANSCRIBER=whisper or TRANSCRIBER=openai."

/** Runs pocketsphinx to its end: its stdout (the words) and stderr (its log, unless -logfn sends it elsewhere). */
export const runPocketsphinx = (binary: string, args: ReadonlyArray<string>) =>
  Effect.async<{ readonly out: string; readonly err: string }, WorkFailed>((resume) => {
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    let err = ""
    child.stdout.on("data", (piece: Buffer) => (out += piece.toString()))
    child.stderr.on("data", (piece: Buffer) => (err += piece.toString()))
    // Node may emit "close" after "error"; the fiber takes the first outcome.
    child.on("error", (e: NodeJS.ErrnoException) =>
      resume(e.code === "ENOENT" ? Effect.fail(new WorkFailed({ message: NOT_INSTALLED })) : Effect.die(e)))
    child.on("close", (code) =>
      resume(
        code === 0
          ? Effect.succeed({ out, err })
          : Effect.fail(
            new WorkFailed({
              message: `Speech recognition failed (${binary} exited with ${code}): ${
                err.trim().split("\n").slice(-2).join(" ") || "check that pocketsphinx-en-us is installed"
              }`
            })
          )
      ))
    return Effect.sync(() => child.kill("SIGKILL"))
  })
