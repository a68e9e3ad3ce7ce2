// The CLI as a user runs it: a separate process talking to a running service at `baseUrl`.
import { execFile } from "node:child_process"
import { promisify } from "node:util"

const run = promisify(execFile)

export interface CliRun {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs `reelwright <args>` with `env` added to this process's; a failing run answers its exit code rather than throwing. */
export const runCli = async (baseUrl: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<CliRun> => {
  try {
    const { stdout, stderr } = await run("node", ["--import", "tsx", "src/cli.ts", ...args], {
      env: { ...process.env, REELWRIGHT_URL: baseUrl, ...env }
    })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const failure = e as CliRun
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr }
  }
}

/** The JSON a successful run printed; a failing run throws with what the CLI wrote to stderr. */
export const cliJson = async (baseUrl: string, args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<any> => {
  const result = await runCli(baseUrl, args, env)
  if (result.code !== 0) throw new Error(`reelwright ${args.join(" ")} exited with ${result.code}: ${result.stderr}`)
  return JSON.parse(result.stdout)
}
