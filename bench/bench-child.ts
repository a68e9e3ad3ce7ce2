// Benchmark code that must run in a process of its own (a baseline server, a sender that needs its own
// environment): the bench module forks itself with a mode argument and waits for its first message.
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"

export interface BenchChild<M> {
  readonly pid: number
  /** The child's first message; rejects, with the end of its stderr, if it exits before sending one. */
  readonly message: Promise<M>
  readonly stop: () => Promise<void>
}

/** BENCH_CPU_PROF=<folder>: each child (a service too) writes a V8 CPU profile there when it stops, to find where its time goes. */
const PROFILE_DIR = process.env["BENCH_CPU_PROF"]
export const profileArgs: ReadonlyArray<string> = PROFILE_DIR === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`]

export const forkBenchChild = <M>(
  moduleUrl: string,
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {}
): BenchChild<M> => {
  const child = fork(fileURLToPath(moduleUrl), [...args], {
    execArgv: ["--import", "tsx", ...profileArgs],
    env: { ...process.env, ...env },
    // stdout is the child's log (the worker logs every job): not needed, and a pipe nobody reads would stall it.
    stdio: ["ignore", "ignore", "pipe", "ipc"]
  })
  let stderr = ""
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-4000)
  })
  const exited = new Promise<void>((done) => child.once("exit", () => done()))
  const message = new Promise<M>((done, fail) => {
    child.once("message", (m) => done(m as M))
    void exited.then(() => fail(new Error(`${args[0] ?? "child"} exited (code ${child.exitCode}) without reporting:\n${stderr}`)))
  })
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
  }
  return { pid: child.pid ?? 0, message, stop }
}

/** In the child: the one message for the parent. */
export const tellParent = (message: unknown): Promise<void> =>
  new Promise((done, fail) => {
    if (process.send === undefined) return fail(new Error("not started by forkBenchChild"))
    process.send(message, (error: Error | null) => (error === null ? done() : fail(error)))
  })

// A profile is written on exit, which SIGTERM's default skips.
if (PROFILE_DIR !== undefined && process.send !== undefined) process.on("SIGTERM", () => process.exit(0))
